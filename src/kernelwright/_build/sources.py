"""The extension's sources and compiler flags, shared by setup.py and the JIT fallback.

This module imports nothing from kernelwright so that setup.py can load it by path.
"""

import hashlib
import os

EXT_NAME = "kernelwright._C"
INFO_FILE = "_build_info.json"  # written next to the AOT-built module

# Hopper's own instructions (wgmma, TMA) need sm_90a; the compute_90 PTX lets the driver
# compile for any later architecture.
DEFAULT_ARCH_FLAGS = [
    "-gencode=arch=compute_90a,code=sm_90a",
    "-gencode=arch=compute_90,code=compute_90",
]


def find_csrc():
    """csrc/ shipped inside the package (wheel installs) or beside src/ (a source checkout)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (
        os.path.join(here, "..", "_csrc"),
        os.path.join(here, "..", "..", "..", "csrc"),
    ):
        if os.path.isfile(os.path.join(candidate, "registration.cpp")):
            return os.path.normpath(candidate)
    return None


def _files(csrc):
    out = []
    for root, _, names in os.walk(csrc):
        for name in names:
            if name.endswith((".cpp", ".cu", ".h", ".cuh")):
                out.append(os.path.relpath(os.path.join(root, name), csrc))
    return sorted(out)


def cutlass_include():
    """CUTLASS's C++ headers, as the nvidia-cutlass wheel ships them, or None."""
    import importlib.util

    # Located, not imported: the package's Python side needs modules the headers do not.
    spec = importlib.util.find_spec("cutlass_library")
    if spec is None or not spec.origin:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "source", "include")
    return path if os.path.isfile(os.path.join(path, "cutlass", "cutlass.h")) else None


def _needs_cutlass(rel):
    # The GEMM kernel instantiations; without CUTLASS, linear runs on cuBLAS through ATen.
    return os.path.basename(rel).startswith("linear_") and rel.endswith(".cu")


def source_list(csrc, with_cuda):
    """Absolute paths of the translation units to compile. Their base names are unique:
    torch's JIT build names object files by base name alone."""
    have_cutlass = cutlass_include() is not None
    units = []
    for rel in _files(csrc):
        cuda_only = rel.endswith(".cu") or rel == os.path.join("ops", "cuda_stream.cpp")
        if _needs_cutlass(rel) and not have_cutlass:
            continue
        if rel.endswith((".cpp", ".cu")) and (with_cuda or not cuda_only):
            units.append(os.path.join(csrc, rel))
    return units


def include_dirs(csrc, with_cuda):
    dirs = [os.path.join(csrc, "include")]
    if with_cuda and cutlass_include():
        dirs.append(cutlass_include())
    return dirs


def source_hash(csrc):
    """Hash of every source and header: a build made from other sources is stale."""
    h = hashlib.sha256()
    for rel in _files(csrc):
        h.update(rel.replace(os.sep, "/").encode())
        with open(os.path.join(csrc, rel), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:20]


def cuda_arch_flags():
    """TORCH_CUDA_ARCH_LIST, when set, is left to torch's own handling."""
    return [] if os.environ.get("TORCH_CUDA_ARCH_LIST") else list(DEFAULT_ARCH_FLAGS)


def compile_flags(with_cuda):
    """(cxx flags, nvcc flags) for both build paths."""
    defines = ["-DKW_WITH_CUDA"] if with_cuda else []
    if with_cuda and cutlass_include():
        defines.append("-DKW_WITH_CUTLASS")
    if with_cuda and _builds_sm90a():
        defines.append("-DKW_SM90A")
    cxx = ["-O3", "-std=c++17"] + defines
    # NDEBUG: CUTLASS's device asserts are calls, and a call in a kernel serializes wgmma.
    nvcc = ["-O3", "-std=c++17", "--expt-relaxed-constexpr", "-lineinfo", "-DNDEBUG"] + defines
    nvcc += cuda_arch_flags()
    return cxx, nvcc


def _builds_sm90a():
    """The Hopper GEMM kernels need wgmma, which only sm_90a code has."""
    arch_list = os.environ.get("TORCH_CUDA_ARCH_LIST")
    return arch_list is None or "9.0a" in arch_list


def cuda_toolchain_available():
    """A CUDA build of torch and nvcc: enough to compile CUDA code, GPU or not."""
    if os.environ.get("KERNELWRIGHT_NO_CUDA") == "1":
        return False
    import torch
    from torch.utils import cpp_extension

    return torch.version.cuda is not None and cpp_extension.CUDA_HOME is not None

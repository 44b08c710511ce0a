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


def source_list(csrc, with_cuda):
    """Absolute paths of the translation units to compile. Their base names are unique:
    torch's JIT build names object files by base name alone."""
    units = []
    for rel in _files(csrc):
        cuda_only = rel.endswith(".cu") or rel == os.path.join("ops", "cuda_stream.cpp")
        if rel.endswith((".cpp", ".cu")) and (with_cuda or not cuda_only):
            units.append(os.path.join(csrc, rel))
    return units


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
    cxx = ["-O3", "-std=c++17"] + defines
    nvcc = ["-O3", "-std=c++17", "--expt-relaxed-constexpr", "-lineinfo"] + defines
    nvcc += cuda_arch_flags()
    return cxx, nvcc


def cuda_toolchain_available():
    """A CUDA build of torch and nvcc: enough to compile CUDA code, GPU or not."""
    if os.environ.get("KERNELWRIGHT_NO_CUDA") == "1":
        return False
    import torch
    from torch.utils import cpp_extension

    return torch.version.cuda is not None and cpp_extension.CUDA_HOME is not None

"""NVRTC compilation and the cubin cache, runnable without a GPU (skipped without cuda-bindings + NVRTC).

    pip install cuda-bindings nvidia-cuda-nvrtc
"""

import importlib
import os
import subprocess
import sys

import pytest
import torch

from kernelwright.kernel import KernelCompileError, parse_kernel
from kernelwright.kernel import nvrtc
from tests.markers import needs_nvrtc

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


pytestmark = needs_nvrtc

SQUARE = r"""
template <typename scalar_t>
__global__ void square_kernel(const scalar_t* x, scalar_t* y, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
"""

BROKEN = """__global__ void broken_kernel(const float* x, float* y, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;

    if (i < n) y[i] = x[i] * scale;
}
"""


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KERNELWRIGHT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(nvrtc, "_binaries", {})
    return tmp_path


def _binary(source, kernel, dtype=None, filename=None, arch="sm_90", options=()):
    sig = parse_kernel(source, kernel)
    return nvrtc.binary(source, filename or f"{kernel}.cu", sig, dtype, None, options, arch)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
def test_templated_kernel_compiles_to_a_cubin_per_dtype(dtype):
    data, meta = _binary(SQUARE, "square_kernel", dtype)
    assert data[:4] == b"\x7fELF" and meta["format"] == "cubin"
    assert meta["lowered"].startswith("_Z") and "square_kernel" in meta["lowered"]


def test_virtual_arch_gives_ptx():
    data, meta = _binary(SQUARE, "square_kernel", torch.float32, arch="compute_90")
    assert meta["format"] == "ptx" and b".entry" in data


def test_compile_error_cites_the_users_line():
    with pytest.raises(KernelCompileError) as info:
        _binary(BROKEN, "broken_kernel")
    error = info.value
    assert error.line == 4
    assert 'broken_kernel.cu(4): error: identifier "scale" is undefined' in str(error)
    assert "broken_kernel.cu, line 4" in str(error).splitlines()[0]


def test_compile_error_in_a_file_names_the_file(tmp_path):
    from kernelwright.kernel import cuda_op

    path = tmp_path / "mine.cu"
    path.write_text(BROKEN)
    op = cuda_op(path, "broken_kernel", namespace="kw_nvrtc_file")
    with pytest.raises(KernelCompileError, match=r"mine\.cu\(4\): error"):
        nvrtc.binary(op._definition.source, op._definition.filename, op._definition.sig, None, None, (), "sm_90")


def test_fixed_width_types_coexist_with_libcudacxx():
    src = "#include <cuda/std/cstdint>\n__global__ void k(const float* x, float* y, int64_t n, uint32_t m) {}\n"
    if not any(os.path.isdir(os.path.join(d, "cuda", "std")) for d in nvrtc._include_dirs()):
        pytest.skip("no libcu++ headers found")
    _binary(src, "k")


def test_disk_cache_hit_skips_the_compiler(monkeypatch, cache):
    first = _binary(SQUARE, "square_kernel", torch.float16)
    assert len(list(cache.glob("nvrtc/*/kernel.cubin"))) == 1

    monkeypatch.setattr(nvrtc, "_binaries", {})

    def refuse(*args):
        raise AssertionError("compiled again despite the cache")

    monkeypatch.setattr(nvrtc, "_compile", refuse)
    again = _binary(SQUARE, "square_kernel", torch.float16)
    assert again == first


def test_cache_key_covers_source_options_arch_and_dtype(monkeypatch, cache):
    _binary(SQUARE, "square_kernel", torch.float32)
    _binary(SQUARE, "square_kernel", torch.float64)
    _binary(SQUARE, "square_kernel", torch.float32, options=("--use_fast_math",))
    _binary(SQUARE, "square_kernel", torch.float32, arch="sm_80")
    _binary(SQUARE.replace("x[i] * x[i]", "x[i] * x[i] * x[i]"), "square_kernel", torch.float32)
    assert len(list(cache.glob("nvrtc/*/meta.json"))) == 5


def test_the_examples_kernels_compile():
    sys.path.insert(0, EXAMPLES)
    try:
        for module, attrs in (("mul_with_backward", ["mul"]), ("square", ["square"]), ("elu", ["elu", "elu_grad"])):
            mod = importlib.import_module(module)
            for attr in attrs:
                d = getattr(mod, attr)._definition
                for dtype in d.binding.dtypes or (None,):
                    data, _ = nvrtc.binary(d.source, d.filename, d.sig, dtype, None, d.options, "sm_90")
                    assert data[:4] == b"\x7fELF"
    finally:
        sys.path.remove(EXAMPLES)


def test_compiling_leaves_the_interpreters_shared_bytes_alone(tmp_path):
    # In a fresh interpreter: a buffer NVRTC wrote into that was CPython's shared one-byte
    # object turned every byte 0x20 read one at a time into 0 for the rest of the process.
    script = r"""
import io, pickle, sys, torch
from kernelwright.kernel import nvrtc, parse_kernel
source = sys.argv[1]
sig = parse_kernel(source, "square_kernel")
for arch in ("compute_90", "sm_90"):
    data, meta = nvrtc.binary(source, "square_kernel.cu", sig, torch.float32, None, (), arch)
    assert meta["log"] == "", meta["log"]
    assert isinstance(data, bytes) and len(data) > 1
print(bytes([32])[0], pickle.load(io.BytesIO(pickle.dumps([32, 64], protocol=2))))
"""
    env = dict(os.environ, KERNELWRIGHT_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", script, SQUARE], capture_output=True, text=True, env=env,
                         cwd=os.path.dirname(EXAMPLES), timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["32", "[32,", "64]"]

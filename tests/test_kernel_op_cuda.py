"""kernelwright.kernel on a GPU: results against torch, errors before launch, streams, graphs, compile."""

import itertools
import json
import os
import subprocess
import sys

import pytest
import torch

from kernelwright.kernel import KernelCompileError, KernelInputError, LaunchConfigError, cuda_op

pytestmark = pytest.mark.cuda

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_counter = itertools.count()


@pytest.fixture
def ns():
    return f"kw_cuda_{next(_counter)}"


SCALE = r"""
template <typename T>
__global__ void scale_kernel(const T* x, T* y, T alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * alpha;
}
"""

REVERSE = r"""
__global__ void reverse_kernel(const float* x, float* y, int64_t n) {
    extern __shared__ float tile[];
    int t = threadIdx.x;
    int64_t base = (int64_t)blockIdx.x * blockDim.x * 16;
    for (int k = 0; k < 16; ++k) tile[k * blockDim.x + t] = x[base + k * blockDim.x + t];
    __syncthreads();
    int last = blockDim.x * 16 - 1;
    for (int k = 0; k < 16; ++k) y[base + k * blockDim.x + t] = tile[last - (k * blockDim.x + t)];
}
"""


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64])
def test_templated_kernel_with_a_scalar_of_the_template_type(ns, dtype):
    op = cuda_op(SCALE, "scale_kernel", namespace=ns)
    x = torch.randn(3000, 7, device="cuda", dtype=dtype)
    torch.testing.assert_close(op(x, 1.5), x * 1.5)
    assert op(x[:0], 2.0).shape == (0, 7)  # nothing to launch


def test_non_contiguous_input_is_copied(ns):
    op = cuda_op(SCALE, "scale_kernel", namespace=ns)
    x = torch.randn(64, 96, device="cuda").t()
    torch.testing.assert_close(op(x, 2.0), x * 2.0)


def test_matmul_with_shapes_and_a_2d_launch(ns):
    src = r"""
    __global__ void matmul_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
        int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
        if (row < M && col < N) {
            float acc = 0.f;
            for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
            C[row * N + col] = acc;
        }
    }"""
    mm = cuda_op(src, "matmul_kernel", namespace=ns, shapes={"A": ("M", "K"), "B": ("K", "N"), "C": ("M", "N")},
                 launch=lambda A, B: (((B.shape[1] + 15) // 16, (A.shape[0] + 15) // 16), (16, 16)))
    a, b = torch.randn(100, 70, device="cuda"), torch.randn(70, 45, device="cuda")
    torch.testing.assert_close(mm(a, b), a @ b, rtol=1e-4, atol=1e-4)


def test_compile_error_then_the_context_still_works(ns):
    broken = cuda_op("__global__ void bad_kernel(const float* x, float* y, int64_t n) {\n\n  y[0] = nope;\n}\n",
                     "bad_kernel", namespace=ns)
    with pytest.raises(KernelCompileError) as info:
        broken(torch.randn(4, device="cuda"))
    assert info.value.line == 3 and "bad_kernel.cu(3)" in str(info.value)
    good = cuda_op(SCALE, "scale_kernel", namespace=ns)
    x = torch.randn(10, device="cuda")
    torch.testing.assert_close(good(x, 3.0), x * 3.0)


def test_bad_launch_and_bad_input_raise_before_launch_and_leave_cuda_usable(ns):
    over = cuda_op(SCALE, "scale_kernel", namespace=ns, launch=lambda x, alpha: (1, 2048))
    x = torch.randn(10, device="cuda")
    with pytest.raises(LaunchConfigError, match="2048"):
        over(x, 1.0)
    good = cuda_op(SCALE, "scale_kernel", name="good", namespace=ns)
    with pytest.raises(KernelInputError, match="dtype torch.int32"):
        good(torch.ones(4, device="cuda", dtype=torch.int32), 1.0)
    with pytest.raises((TypeError, RuntimeError)):
        good(x)  # missing alpha: the dispatcher refuses before the kernel is reached
    with pytest.raises((TypeError, RuntimeError)):
        good(x, "two")
    torch.cuda.synchronize()
    torch.testing.assert_close(good(x, 2.0), x * 2.0)


def test_dynamic_shared_memory_above_48k_opts_in(ns):
    # 1024 threads x 16 floats = 64 KiB of dynamic shared memory per block.
    rev = cuda_op(REVERSE, "reverse_kernel", namespace=ns, launch=lambda x: (x.numel() // (1024 * 16), 1024, 1024 * 16 * 4))
    x = torch.randn(4, 1024 * 16, device="cuda")
    torch.testing.assert_close(rev(x), x.flip(-1))
    too_much = cuda_op(REVERSE, "reverse_kernel", name="too_much", namespace=ns, launch=lambda x: (1, 1024, 1 << 20))
    with pytest.raises(LaunchConfigError, match="shared memory"):
        too_much(x)
    torch.testing.assert_close(rev(x), x.flip(-1))


def test_runs_on_the_current_stream(ns):
    op = cuda_op(SCALE, "scale_kernel", namespace=ns)
    x = torch.zeros(1 << 20, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(50_000_000)
        x.fill_(2.0)  # queued behind the sleep: a launch on another stream would read the zeros
        y = op(x, 3.0)
    side.synchronize()
    assert bool((y == 6.0).all())


def test_cuda_graph_capture_and_replay(ns):
    op = cuda_op(SCALE, "scale_kernel", namespace=ns).load(dtypes=[torch.float32])
    x = torch.randn(4096, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        op(x, 3.0)  # warm-up outside capture, as torch asks
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = op(x, 3.0)
    x.copy_(torch.arange(4096, device="cuda", dtype=torch.float32))
    graph.replay()
    torch.testing.assert_close(y, x * 3.0)


def test_backward_on_the_autograd_thread(ns):
    mul = cuda_op("template <typename T> __global__ void mul_kernel(const T* a, const T* b, T* c, int64_t n) {"
                  " int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] * b[i]; }",
                  "mul_kernel", namespace=ns, backward=lambda g, a, b: (mul(g, b), mul(g, a)))
    a = torch.randn(1000, device="cuda", requires_grad=True)
    b = torch.randn(1000, device="cuda", requires_grad=True)
    (mul(a, b) * 3).sum().backward()
    torch.testing.assert_close(a.grad, 3 * b.detach())
    torch.testing.assert_close(b.grad, 3 * a.detach())


def test_torch_compile_fullgraph_and_opcheck(ns):
    op = cuda_op(SCALE, "scale_kernel", namespace=ns, backward=lambda g, x, alpha: (g * alpha, None))
    x = torch.randn(513, device="cuda", requires_grad=True)
    f = torch.compile(lambda x: torch.sin(op(x, 0.5)) + 1, fullgraph=True)
    y = f(x)
    torch.testing.assert_close(y, torch.sin(x * 0.5) + 1)
    (g,) = torch.autograd.grad(y.sum(), x)
    torch.testing.assert_close(g, torch.cos(x * 0.5) * 0.5)
    torch.library.opcheck(op.op, (torch.randn(77, device="cuda", requires_grad=True), 2.0))


def test_warm_load_in_a_fresh_process_reads_the_cache(tmp_path):
    script = "\n".join(
        [
            "import json, sys, torch",
            "from kernelwright.kernel import cuda_op",
            "torch.empty(1, device='cuda')",
            f"op = cuda_op({SCALE!r}, 'scale_kernel')",
            "before = 'cuda.bindings.nvrtc' in sys.modules",
            # A cache hit in a fresh process must neither compile nor load NVRTC.
            "op.load(dtypes=[torch.float32])",
            "print(json.dumps({'nvrtc': 'cuda.bindings.nvrtc' in sys.modules and not before}))",
        ]
    )
    env = dict(os.environ, KERNELWRIGHT_CACHE_DIR=str(tmp_path), PYTHONPATH=os.path.join(ROOT, "src"))
    runs, cached = [], []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
        cached.append({p: p.stat().st_mtime_ns for p in tmp_path.glob("nvrtc/*/kernel.cubin")})
    assert cached[0] and cached[1] == cached[0], "the second load did not reuse the first one's binary"
    assert not runs[1]["nvrtc"], "a cache hit imported the NVRTC bindings"


@pytest.mark.slow
def test_sources_with_torch_headers_build_with_cpp_extension(ns, tmp_path, monkeypatch):
    from torch.utils.cpp_extension import is_ninja_available

    if not is_ninja_available():
        pytest.skip("torch.utils.cpp_extension needs ninja")
    monkeypatch.setenv("KERNELWRIGHT_CACHE_DIR", str(tmp_path))
    src = "#include <torch/extension.h>\n#include <c10/util/Half.h>\n" + SCALE
    op = cuda_op(src, "scale_kernel", namespace=ns, dtypes=[torch.float32, torch.float16])
    assert op._definition.backend == "torch"
    x = torch.randn(1000, device="cuda")
    torch.testing.assert_close(op(x, 2.0), x * 2.0)
    torch.testing.assert_close(op(x.half(), 2.0), (x * 2.0).half())
    with pytest.raises(LaunchConfigError):
        cuda_op(src, "scale_kernel", name="too_big", namespace=ns, dtypes=[torch.float32], launch=lambda x, a: (1, 4096))(x, 1.0)

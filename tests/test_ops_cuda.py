"""What only a GPU can show: streams, CUDA graph capture, 64-bit indexing, peak memory."""

import pytest
import torch
import torch.nn.functional as F

import kernelwright.ops as K
from reference import assert_close_to_reference, randn

pytestmark = pytest.mark.cuda


def test_runs_on_the_current_stream():
    side = torch.cuda.Stream()
    x = torch.empty(1 << 22, device="cuda")
    with torch.cuda.stream(side):
        # Work queued on `side` only: a kernel on another stream would read x unwritten.
        torch.cuda._sleep(10_000_000)
        x.normal_()
        y = K.sigmoid(x)
        z = K.logsumexp(x.view(1, -1), 1)
    side.synchronize()
    assert_close_to_reference(y, torch.sigmoid(x.double()), torch.float32)
    assert_close_to_reference(z, torch.logsumexp(x.double().view(1, -1), 1), torch.float32)


def test_cuda_graph_capture_and_replay():
    x = randn((513, 1031), torch.float32, "cuda")
    s = torch.tensor(1.5, device="cuda")
    K.logsumexp(K.mul(K.elu(x, 0.5), s), 1)  # warm-up outside capture, as torch requires
    K.logsumexp(x.view(1, -1), 1)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = K.logsumexp(K.mul(K.elu(x, 0.5), s), 1)
        long = K.logsumexp(x.view(1, -1), 1)  # split rows: a workspace and a merge kernel
    for _ in range(3):
        x.copy_(randn((513, 1031), torch.float32, "cuda"))
        graph.replay()
        torch.cuda.synchronize()
        want = torch.logsumexp(F.elu(x.double(), 0.5) * 1.5, 1)
        assert_close_to_reference(out, want, torch.float32)
        assert_close_to_reference(long, torch.logsumexp(x.double().view(1, -1), 1), torch.float32)


def _chunks_close(got, want, dtype, chunk=1 << 26):
    g, w = got.reshape(-1), want.reshape(-1)
    for i in range(0, g.numel(), chunk):
        assert_close_to_reference(g[i : i + chunk], w[i : i + chunk].double(), dtype)


@pytest.mark.slow
def test_more_than_2_pow_31_elements():
    n = (1 << 31) + 4099
    x = torch.randn(n, device="cuda", dtype=torch.float16)
    _chunks_close(K.sigmoid(x), torch.sigmoid(x.float()), torch.float16)
    del x
    rows = (1 << 31) // 2048 + 3  # broadcast row: the strided path with 64-bit offsets
    a = torch.randn(rows, 2048, device="cuda", dtype=torch.float16)
    b = torch.randn(2048, device="cuda", dtype=torch.float16)
    _chunks_close(K.mul(a, b), a.float() * b.float(), torch.float16)
    lse = K.logsumexp(a.view(1, -1), 1)
    assert_close_to_reference(lse, torch.logsumexp(a.view(1, -1).float(), 1), torch.float16)


def _peak(fn):
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    out = fn()
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated() - base, out


@pytest.mark.parametrize(
    "name,ours,eager",
    [
        ("elu", lambda x, y: K.elu(x, 0.5), lambda x, y: F.elu(x, 0.5)),
        ("sigmoid", lambda x, y: K.sigmoid(x), lambda x, y: torch.sigmoid(x)),
        ("square", lambda x, y: K.square(x), lambda x, y: torch.square(x)),
        ("mul", K.mul, torch.mul),
        ("add", K.add, torch.add),
        ("logsumexp", lambda x, y: K.logsumexp(x, 1), lambda x, y: torch.logsumexp(x, 1)),
    ],
)
def test_peak_memory_not_above_eager(name, ours, eager):
    x = randn((2048, 4096), torch.float32, "cuda").requires_grad_()
    y = randn((2048, 4096), torch.float32, "cuda").requires_grad_()
    for label, fn in (("forward", lambda f: f(x, y)), ("backward", None)):
        if fn is None:
            peak_ours, _ = _peak(lambda: torch.autograd.grad(ours(x, y).sum(), (x, y), allow_unused=True))
            peak_eager, _ = _peak(lambda: torch.autograd.grad(eager(x, y).sum(), (x, y), allow_unused=True))
        else:
            peak_ours, _ = _peak(lambda: fn(ours))
            peak_eager, _ = _peak(lambda: fn(eager))
        assert peak_ours <= peak_eager, (name, label, peak_ours, peak_eager)

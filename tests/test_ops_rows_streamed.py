"""The row ops' streamed path (rows read from DRAM once): rows whose second read would not fit
in half of L2. Every shape here re-reads at least 64 MB in the two-read kernels, above half of
any current GPU's L2, so the streamed kernel runs; rows both fewer and more than the device
holds at once, lengths that do not divide into chunks, every dtype, forward and backward."""

import pytest
import torch
import torch.nn.functional as F

import kernelwright.ops as K
from reference import assert_close_to_reference, assert_no_worse_than_torch, randn

pytestmark = pytest.mark.cuda

# (rows, len): few rows of many chunks; many rows of a few chunks, the last one partial.
SHAPES = [(3, 12_000_004), (700, 49_156), (2100, 32_776)]


def _x(shape, dtype, mean=1.5, scale=3.0):
    return randn(shape, dtype, "cuda", scale=scale, mean=mean)


def _rows(out, want, dtype, step):
    # Row blocks at a time: the float64 reference of a whole 100 MB tensor is large.
    for i in range(0, out.shape[0], step):
        assert_close_to_reference(out[i : i + step], want(slice(i, i + step)), dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16], ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_softmax(shape, dtype):
    x = _x(shape, dtype, scale=4.0)
    out = K.softmax(x, 1)
    _rows(out, lambda s: torch.softmax(x[s].double(), 1), dtype, max(1, shape[0] // 4))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_softmax_backward(shape):
    x = _x(shape, torch.float32, scale=2.0).requires_grad_()
    g = randn(shape, torch.float32, "cuda")
    (got,) = torch.autograd.grad(K.softmax(x, 1), x, g)
    (eager,) = torch.autograd.grad(torch.softmax(x, 1), x, g)
    for i in range(0, shape[0], max(1, shape[0] // 4)):
        s = slice(i, i + max(1, shape[0] // 4))
        x64 = x[s].detach().double().requires_grad_()
        (want,) = torch.autograd.grad(torch.softmax(x64, 1), x64, g[s].double())
        assert_no_worse_than_torch(got[s], eager[s], want)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_layer_norm_and_its_statistics(shape, dtype):
    ns = shape[1:]
    x = _x(shape, dtype, mean=20.0)
    w = randn(ns, dtype, "cuda", scale=0.5, mean=1.0)
    b = randn(ns, dtype, "cuda")
    out = K.layer_norm(x, ns, w, b)
    ref = lambda s: F.layer_norm(x[s].double(), ns, w.double(), b.double())  # noqa: E731
    _rows(out, ref, dtype, max(1, shape[0] // 4))
    _, mean, rstd = torch.ops.kernelwright.layer_norm(x, list(ns), w, b, 1e-5)
    x64 = x.double()
    torch.testing.assert_close(mean.double(), x64.mean(1), rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(rstd.double(), (x64.var(1, unbiased=False) + 1e-5).rsqrt(), rtol=1e-5, atol=0)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_layer_norm_backward(shape):
    ns = shape[1:]
    x = _x(shape, torch.float32).requires_grad_()
    w = randn(ns, torch.float32, "cuda", scale=0.5, mean=1.0).requires_grad_()
    b = randn(ns, torch.float32, "cuda").requires_grad_()
    g = randn(shape, torch.float32, "cuda")
    got = torch.autograd.grad(K.layer_norm(x, ns, w, b), (x, w, b), g)
    eager = torch.autograd.grad(F.layer_norm(x, ns, w, b), (x, w, b), g)
    x64, w64, b64 = (t.detach().double().requires_grad_() for t in (x, w, b))
    want = torch.autograd.grad(F.layer_norm(x64, ns, w64, b64), (x64, w64, b64), g.double())
    for got_t, eager_t, want_t in zip(got, eager, want):
        assert_no_worse_than_torch(got_t, eager_t, want_t)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_rms_norm_forward_and_backward(shape, dtype):
    ns = shape[1:]
    x = _x(shape, dtype, mean=0.0).requires_grad_()
    w = randn(ns, dtype, "cuda", scale=0.5, mean=1.0).requires_grad_()
    g = randn(shape, dtype, "cuda")
    out = K.rms_norm(x, ns, w)
    ref = lambda s: F.rms_norm(x[s].detach().double(), ns, w.detach().double())  # noqa: E731
    _rows(out.detach(), ref, dtype, max(1, shape[0] // 4))
    got = torch.autograd.grad(out, (x, w), g)
    eager = torch.autograd.grad(F.rms_norm(x, ns, w), (x, w), g)
    x64, w64 = (t.detach().double().requires_grad_() for t in (x, w))
    want = torch.autograd.grad(F.rms_norm(x64, ns, w64), (x64, w64), g.double())
    for got_t, eager_t, want_t in zip(got, eager, want):
        assert_no_worse_than_torch(got_t, eager_t, want_t)


def test_float64_rows():
    x = _x((4, 4_000_000), torch.float64)
    torch.testing.assert_close(K.softmax(x, 1), torch.softmax(x, 1), rtol=1e-12, atol=1e-15)


def test_results_do_not_depend_on_the_schedule():
    # Blocks take chunks from a queue in whatever order they reach it; a row's coefficients
    # are merged in a fixed order, so repeated calls agree to the bit.
    x = _x((700, 49_156), torch.float32)
    first = K.softmax(x, 1)
    for _ in range(3):
        assert torch.equal(K.softmax(x, 1), first)


def test_inside_a_cuda_graph_on_a_side_stream():
    x = _x((3, 12_000_004), torch.float32)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        K.softmax(x, 1)  # warm-up outside capture, as torch requires
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            got = K.softmax(x, 1)
    torch.cuda.current_stream().wait_stream(side)
    for _ in range(2):  # the graph's counters start from zero on every replay
        x.copy_(_x(x.shape, torch.float32))
        want = torch.softmax(x.double(), 1)
        graph.replay()
        assert_close_to_reference(got, want, torch.float32)

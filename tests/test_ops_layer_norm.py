"""layer_norm: rows from 1 to millions long, with and without weight and bias, accurate when
|mean| >> std, gradients for x, weight and bias."""

import pytest
import torch
import torch.nn.functional as F
from torch.library import opcheck

import kernelwright.ops as K
from reference import DTYPES, assert_close_to_reference, assert_no_worse_than_torch, poison, randn

AFFINE = ["none", "weight", "bias", "both"]


def _x(shape, dtype, device, mean=1.5, scale=3.0):
    return randn(shape, dtype, device, scale=scale, mean=mean)


def _params(ns, dtype, device, affine):
    w = randn(ns, dtype, device, scale=0.5, mean=1.0) if affine in ("weight", "both") else None
    b = randn(ns, dtype, device, scale=1.0) if affine in ("bias", "both") else None
    return w, b


def _ref(x, ns, w, b, eps=1e-5):
    d = lambda t: None if t is None else t.double()  # noqa: E731
    return F.layer_norm(x.double(), ns, d(w), d(b), eps)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("affine", AFFINE)
@pytest.mark.parametrize(
    "shape,ns",
    [
        ((5, 1), (1,)),  # rows of length 1: the output is the bias
        ((16,), (16,)),  # one row, no leading dims
        ((7, 33), (33,)),
        ((4, 64), (64,)),  # whole 16-byte vectors
        ((2, 3, 129), (3, 129)),
        ((3, 1030), (1030,)),  # a block per row
        ((3, 4097), (4097,)),  # rows split across blocks
    ],
    ids=str,
)
def test_matches_float64(device, shape, ns, affine, dtype):
    x = _x(shape, dtype, device)
    w, b = _params(ns, dtype, device, affine)
    poison(device)
    assert_close_to_reference(K.layer_norm(x, ns, w, b), _ref(x, ns, w, b), dtype)


@pytest.mark.parametrize("length", [2, 7, 31, 33, 1024, 1025, 4097, 65537, 100003])
def test_row_lengths(device, length):
    x = _x((3, length), torch.float32, device)
    w, b = _params((length,), torch.float32, device, "both")
    want = _ref(x, (length,), w, b)
    assert_close_to_reference(K.layer_norm(x, length, w, b), want, torch.float32)
    # x, weight and bias starting off 16-byte alignment.
    flat = torch.empty(x.numel() + 1, device=device)
    flat[1:] = x.reshape(-1)
    wb = torch.empty(2, length + 1, device=device)
    wb[0, 1:], wb[1, 1:] = w, b
    got = K.layer_norm(flat[1:].view(3, length), (length,), wb[0, 1:], wb[1, 1:])
    assert_close_to_reference(got, want, torch.float32)


@pytest.mark.parametrize("mean,scale", [(1000.0, 1.0), (-3.0e4, 0.1), (1.0e6, 30.0)])
def test_large_mean_keeps_fp32_accuracy(device, mean, scale):
    x = _x((6, 4099), torch.float32, device, mean=mean, scale=scale)
    w, b = _params((4099,), torch.float32, device, "both")
    assert_close_to_reference(K.layer_norm(x, (4099,), w, b), _ref(x, (4099,), w, b), torch.float32)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_long_rows(device, dtype):
    x = _x((2, 1_000_003), dtype, device)
    w, b = _params((1_000_003,), dtype, device, "both")
    assert_close_to_reference(K.layer_norm(x, 1_000_003, w, b), _ref(x, (1_000_003,), w, b), dtype)
    # KernelBench's layout, fewer rows: normalized over (64, 64, 64) as over (64, 256, 256).
    x = _x((2, 64, 64, 64), dtype, device)
    w, b = _params((64, 64, 64), dtype, device, "both")
    assert_close_to_reference(K.layer_norm(x, (64, 64, 64), w, b), _ref(x, (64, 64, 64), w, b), dtype)


def test_non_contiguous_inputs(device):
    base = _x((6, 40, 9), torch.float32, device)
    strided_w = lambda n: randn((2 * n,), torch.float32, device, scale=0.5, mean=1.0)[::2]  # noqa: E731
    cases = [
        (base.transpose(1, 2), (9, 40), _params((40, 9), torch.float32, device, "weight")[0].t(), strided_w(360).view(9, 40)),
        (base[:, ::3, :], (9,), strided_w(9), strided_w(9)),
        (base.permute(2, 0, 1), (40,), strided_w(40), None),
    ]
    for view, ns, w, b in cases:
        out = K.layer_norm(view, ns, w, b)
        assert out.is_contiguous()
        assert_close_to_reference(out, _ref(view, ns, w, b), torch.float32)


def test_empty(device):
    x = torch.empty(0, 5, device=device, requires_grad=True)
    w = torch.ones(5, device=device, requires_grad=True)
    out = K.layer_norm(x, (5,), w)
    assert out.shape == (0, 5)
    gx, gw = torch.autograd.grad(out.sum(), (x, w))
    assert gx.shape == (0, 5) and bool((gw == 0).all())
    assert K.layer_norm(torch.empty(3, 0, device=device), (0,)).shape == (3, 0)


@pytest.mark.parametrize("affine", AFFINE)
@pytest.mark.parametrize("ns", [(5,), (4, 5)], ids=str)
def test_gradcheck(device, affine, ns):
    x = _x((3, 4, 5), torch.float64, device).requires_grad_()
    w, b = _params(ns, torch.float64, device, affine)
    params = [t.requires_grad_() for t in (w, b) if t is not None]

    def f(x, *ps):
        it = iter(ps)
        return K.layer_norm(x, ns, next(it) if w is not None else None, next(it) if b is not None else None)

    assert torch.autograd.gradcheck(f, (x, *params))


@pytest.mark.parametrize("shape", [(7, 1031), (3, 100003), (300, 24)], ids=str)
def test_backward_matches_float64(device, shape):
    ns = shape[-1:]
    x = _x(shape, torch.float32, device).requires_grad_()
    w, b = (t.requires_grad_() for t in _params(ns, torch.float32, device, "both"))
    g = randn(shape, torch.float32, device)
    got = torch.autograd.grad(K.layer_norm(x, ns, w, b), (x, w, b), g)
    x64, w64, b64 = (t.detach().double().requires_grad_() for t in (x, w, b))
    want = torch.autograd.grad(F.layer_norm(x64, ns, w64, b64), (x64, w64, b64), g.double())
    eager = torch.autograd.grad(F.layer_norm(x, ns, w, b), (x, w, b), g)
    for got_t, want_t, eager_t in zip(got, want, eager):
        assert_no_worse_than_torch(got_t, eager_t, want_t)
    assert_close_to_reference(got[0], want[0], torch.float32)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_backward_low_precision(device, dtype):
    x = _x((9, 1031), dtype, device).requires_grad_()
    w, b = (t.requires_grad_() for t in _params((1031,), dtype, device, "both"))
    g = randn((9, 1031), dtype, device)
    got = torch.autograd.grad(K.layer_norm(x, 1031, w, b), (x, w, b), g)
    eager = torch.autograd.grad(F.layer_norm(x, (1031,), w, b), (x, w, b), g)
    x64, w64, b64 = (t.detach().double().requires_grad_() for t in (x, w, b))
    want = torch.autograd.grad(F.layer_norm(x64, (1031,), w64, b64), (x64, w64, b64), g.double())
    for got_t, eager_t, want_t in zip(got, eager, want):
        assert_no_worse_than_torch(got_t, eager_t, want_t)


def test_opcheck(device):
    r = lambda *s, g=True: _x(s, torch.float32, device).requires_grad_(g)  # noqa: E731
    ops = torch.ops.kernelwright
    opcheck(ops.layer_norm.default, (r(7, 9), [9], r(9), r(9), 1e-5))
    opcheck(ops.layer_norm.default, (r(3, 4, 5), [4, 5], None, r(4, 5)))
    opcheck(ops.layer_norm.default, (r(4, 6)[:, ::2], [3]))
    x = r(5, 3, g=False)
    _, mean, rstd = ops.layer_norm(x, [3])
    opcheck(ops.layer_norm_backward.default, (r(5, 3, g=False), x, mean, rstd, [3], r(3, g=False), True))
    opcheck(ops.layer_norm_backward.default, (r(5, 3, g=False), x, mean, rstd, [3], None, False))


def test_compile_fullgraph_forward_and_backward(device):
    backend = "inductor" if torch.device(device).type == "cuda" else "aot_eager"
    torch._dynamo.reset()
    model = lambda t, w, b: K.layer_norm(t * 2.0, (33,), w, b).sum(0)  # noqa: E731
    reference = lambda t, w, b: F.layer_norm(t * 2.0, (33,), w, b).sum(0)  # noqa: E731
    compiled = torch.compile(model, fullgraph=True, backend=backend)
    x = _x((16, 33), torch.float32, device).requires_grad_()
    w, b = (t.requires_grad_() for t in _params((33,), torch.float32, device, "both"))
    out, ref = compiled(x, w, b), reference(x, w, b)
    torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-5)
    g = randn((33,), torch.float32, device)
    for got, want in zip(torch.autograd.grad(out, (x, w, b), g), torch.autograd.grad(ref, (x, w, b), g)):
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.bool], ids=str)
def test_integer_dtype(device, dtype):
    x = torch.ones(4, 4, dtype=dtype, device=device)
    with pytest.raises(TypeError, match="argument 'x'.*floating-point"):
        K.layer_norm(x, (4,))
    with pytest.raises(TypeError, match="argument 'weight'.*floating-point"):
        K.layer_norm(torch.ones(4, 4, device=device), (4,), x[0])


def test_bad_arguments(device):
    x = torch.randn(3, 4, device=device)
    with pytest.raises(ValueError, match="argument 'weight' has shape \\[5\\] but normalized_shape is \\[4\\]"):
        K.layer_norm(x, (4,), torch.ones(5, device=device))
    with pytest.raises(ValueError, match="argument 'bias' has shape \\[1, 4\\]"):
        K.layer_norm(x, (4,), None, torch.ones(1, 4, device=device))
    with pytest.raises(TypeError, match="argument 'weight' has dtype .*'x' has dtype"):
        K.layer_norm(x, (4,), torch.ones(4, device=device, dtype=torch.float64))
    with pytest.raises(ValueError, match="argument 'normalized_shape' is \\[3\\]"):
        K.layer_norm(x, (3,))
    with pytest.raises(ValueError, match="argument 'normalized_shape' is \\[2, 3, 4\\]"):
        K.layer_norm(x, (2, 3, 4))
    with pytest.raises(ValueError, match="argument 'normalized_shape' must name at least one dim"):
        K.layer_norm(x, ())
    f = torch.compile(lambda t, w: K.layer_norm(t, (4,), w), fullgraph=True, backend="aot_eager")
    with pytest.raises(Exception, match="argument 'weight' has shape \\[3\\]"):
        f(x, torch.ones(3, device=device))
    assert_close_to_reference(K.layer_norm(x, (4,)), _ref(x, (4,), None, None), torch.float32)


@pytest.mark.cuda
def test_cpu_weight_with_cuda_x():
    x = torch.randn(3, 4, device="cuda")
    with pytest.raises(ValueError, match="argument 'weight' is on cpu but argument 'x' is on cuda"):
        K.layer_norm(x, (4,), torch.ones(4))
    with pytest.raises(ValueError, match="argument 'bias' is on cpu but argument 'x' is on cuda"):
        K.layer_norm(x, (4,), torch.ones(4, device="cuda"), torch.zeros(4))
    with pytest.raises(ValueError, match="argument 'weight' is on cuda:0 but argument 'x' is on cpu"):
        K.layer_norm(x.cpu(), (4,), torch.ones(4, device="cuda"))


@pytest.mark.cuda
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_weight_on_another_gpu():
    x = torch.randn(3, 4, device="cuda:0")
    with pytest.raises(ValueError, match="argument 'weight' is on cuda:1"):
        K.layer_norm(x, (4,), torch.ones(4, device="cuda:1"))


@pytest.mark.cuda
def test_kernelbench_shape():
    # 16 rows of 64 * 256 * 256: each row split across many blocks.
    ns = (64, 256, 256)
    x = _x((16,) + ns, torch.float32, "cuda")
    w, b = _params(ns, torch.float32, "cuda", "both")
    out = K.layer_norm(x, ns, w, b)
    for i in range(0, 16, 4):
        assert_close_to_reference(out[i : i + 4], _ref(x[i : i + 4], ns, w, b), torch.float32)


@pytest.mark.cuda
def test_row_ops_on_the_current_stream_and_in_cuda_graphs():
    # Few long rows: split across blocks, with a workspace and two kernels per op.
    ns = (100003,)
    x = _x((4,) + ns, torch.float32, "cuda")
    w, b = _params(ns, torch.float32, "cuda", "both")
    want = lambda: (_ref(x, ns, w, b), torch.softmax(x.double(), 1))  # noqa: E731
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    xs = torch.empty_like(x)
    with torch.cuda.stream(side):
        # Work queued on `side` only: a kernel on another stream would read xs unwritten.
        torch.cuda._sleep(10_000_000)
        xs.copy_(x)
        got = (K.layer_norm(xs, ns, w, b), K.softmax(xs, 1))
    side.synchronize()
    for g, r in zip(got, want()):
        assert_close_to_reference(g, r, torch.float32)
    K.layer_norm(x, ns, w, b), K.softmax(x, 1)  # warm-up outside capture, as torch requires
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        got = (K.layer_norm(x, ns, w, b), K.softmax(x, 1))
    for _ in range(2):
        x.copy_(_x((4,) + ns, torch.float32, "cuda"))
        graph.replay()
        torch.cuda.synchronize()
        for g, r in zip(got, want()):
            assert_close_to_reference(g, r, torch.float32)

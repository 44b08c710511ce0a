"""rms_norm: rows from 1 to millions long, with and without weight, torch's default eps,
gradients for x and weight."""

import pytest
import torch
import torch.nn.functional as F
from torch.library import opcheck

import kernelwright.ops as K
from reference import DTYPES, assert_close_to_reference, assert_no_worse_than_torch, poison, randn


def _x(shape, dtype, device, mean=1.5, scale=3.0):
    return randn(shape, dtype, device, scale=scale, mean=mean)


def _weight(ns, dtype, device):
    return randn(ns, dtype, device, scale=0.5, mean=1.0)


def _ref(x, ns, w, eps=None):
    # eps=None on the float64 copy would take float64's epsilon; x's own dtype decides it.
    if eps is None:
        eps = _eps(x.dtype)
    return F.rms_norm(x.double(), ns, None if w is None else w.double(), eps)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("with_weight", [False, True])
@pytest.mark.parametrize(
    "shape,ns",
    [
        ((5, 1), (1,)),
        ((16,), (16,)),
        ((7, 33), (33,)),
        ((4, 64), (64,)),
        ((2, 3, 129), (3, 129)),
        ((3, 1030), (1030,)),
        ((3, 4097), (4097,)),
    ],
    ids=str,
)
def test_matches_float64(device, shape, ns, with_weight, dtype):
    x = _x(shape, dtype, device)
    w = _weight(ns, dtype, device) if with_weight else None
    poison(device)
    assert_close_to_reference(K.rms_norm(x, ns, w), _ref(x, ns, w), dtype)
    assert_close_to_reference(K.rms_norm(x, ns, w, eps=0.5), _ref(x, ns, w, eps=0.5), dtype)


def test_default_eps_is_torchs(device):
    # Rows of zeros and of tiny values, where eps decides the result.
    for dtype in DTYPES:
        x = torch.tensor([[0.0, 0.0, 0.0], [1e-4, -2e-4, 3e-4]], dtype=dtype, device=device)
        got = K.rms_norm(x, (3,))
        assert_close_to_reference(got, _ref(x, (3,), None), dtype)
        assert_close_to_reference(got, F.rms_norm(x, (3,)), dtype)


def _eps(dtype):
    return torch.finfo(torch.float64 if dtype == torch.float64 else torch.float32).eps


@pytest.mark.parametrize("length", [2, 7, 31, 33, 1024, 1025, 4097, 65537, 100003])
def test_row_lengths(device, length):
    x = _x((3, length), torch.float32, device)
    w = _weight((length,), torch.float32, device)
    want = _ref(x, (length,), w)
    assert_close_to_reference(K.rms_norm(x, length, w), want, torch.float32)
    flat = torch.empty(x.numel() + 1, device=device)
    flat[1:] = x.reshape(-1)
    wflat = torch.empty(length + 1, device=device)
    wflat[1:] = w
    assert_close_to_reference(K.rms_norm(flat[1:].view(3, length), (length,), wflat[1:]), want, torch.float32)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_long_rows(device, dtype):
    x = _x((2, 1_000_003), dtype, device)
    w = _weight((1_000_003,), dtype, device)
    assert_close_to_reference(K.rms_norm(x, 1_000_003, w), _ref(x, (1_000_003,), w), dtype)


def test_non_contiguous_inputs(device):
    base = _x((6, 40, 9), torch.float32, device)
    w = randn((80,), torch.float32, device, mean=1.0)[::2]
    for view, ns in ((base.permute(2, 0, 1), (40,)), (base[:, ::3, :], (9,)), (base.transpose(1, 2), (9, 40))):
        weight = w[: ns[-1]] if len(ns) == 1 else randn((40, 9), torch.float32, device).t()
        out = K.rms_norm(view, ns, weight)
        assert out.is_contiguous()
        assert_close_to_reference(out, _ref(view, ns, weight), torch.float32)


def test_empty(device):
    x = torch.empty(0, 5, device=device, requires_grad=True)
    w = torch.ones(5, device=device, requires_grad=True)
    out = K.rms_norm(x, (5,), w)
    assert out.shape == (0, 5)
    gx, gw = torch.autograd.grad(out.sum(), (x, w))
    assert gx.shape == (0, 5) and bool((gw == 0).all())
    assert K.rms_norm(torch.empty(3, 0, device=device), (0,)).shape == (3, 0)


@pytest.mark.parametrize("with_weight", [False, True])
@pytest.mark.parametrize("ns", [(5,), (4, 5)], ids=str)
def test_gradcheck(device, with_weight, ns):
    x = _x((3, 4, 5), torch.float64, device).requires_grad_()
    if with_weight:
        w = _weight(ns, torch.float64, device).requires_grad_()
        assert torch.autograd.gradcheck(lambda x, w: K.rms_norm(x, ns, w), (x, w))
    else:
        assert torch.autograd.gradcheck(lambda x: K.rms_norm(x, ns, eps=1e-3), (x,))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("shape", [(9, 1031), (3, 100003), (300, 24)], ids=str)
def test_backward_matches_torch(device, shape, dtype):
    ns = shape[-1:]
    x = _x(shape, dtype, device).requires_grad_()
    w = _weight(ns, dtype, device).requires_grad_()
    g = randn(shape, dtype, device)
    got = torch.autograd.grad(K.rms_norm(x, ns, w), (x, w), g)
    eager = torch.autograd.grad(F.rms_norm(x, ns, w), (x, w), g)
    x64, w64 = (t.detach().double().requires_grad_() for t in (x, w))
    want = torch.autograd.grad(F.rms_norm(x64, ns, w64, _eps(dtype)), (x64, w64), g.double())
    for got_t, eager_t, want_t in zip(got, eager, want):
        assert_no_worse_than_torch(got_t, eager_t, want_t)
    if dtype == torch.float32:
        assert_close_to_reference(got[0], want[0], dtype)


def test_opcheck(device):
    r = lambda *s, g=True: _x(s, torch.float32, device).requires_grad_(g)  # noqa: E731
    ops = torch.ops.kernelwright
    opcheck(ops.rms_norm.default, (r(7, 9), [9], r(9), 1e-6))
    opcheck(ops.rms_norm.default, (r(3, 4, 5), [4, 5]))
    opcheck(ops.rms_norm.default, (r(4, 6)[:, ::2], [3], None, None))
    x = r(5, 3, g=False)
    _, rstd = ops.rms_norm(x, [3])
    opcheck(ops.rms_norm_backward.default, (r(5, 3, g=False), x, rstd, [3], r(3, g=False)))
    opcheck(ops.rms_norm_backward.default, (r(5, 3, g=False), x, rstd, [3], None))


def test_compile_fullgraph_forward_and_backward(device):
    backend = "inductor" if torch.device(device).type == "cuda" else "aot_eager"
    torch._dynamo.reset()
    compiled = torch.compile(lambda t, w: K.rms_norm(t * 2.0, (33,), w).sum(0), fullgraph=True, backend=backend)
    x = _x((16, 33), torch.float32, device).requires_grad_()
    w = _weight((33,), torch.float32, device).requires_grad_()
    out, ref = compiled(x, w), F.rms_norm(x * 2.0, (33,), w).sum(0)
    torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-5)
    g = randn((33,), torch.float32, device)
    for got, want in zip(torch.autograd.grad(out, (x, w), g), torch.autograd.grad(ref, (x, w), g)):
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.bool], ids=str)
def test_integer_dtype(device, dtype):
    x = torch.ones(4, 4, dtype=dtype, device=device)
    with pytest.raises(TypeError, match="argument 'x'.*floating-point"):
        K.rms_norm(x, (4,))
    with pytest.raises(TypeError, match="argument 'weight'.*floating-point"):
        K.rms_norm(torch.ones(4, 4, device=device), (4,), x[0])


def test_bad_arguments(device):
    x = torch.randn(3, 4, device=device)
    with pytest.raises(ValueError, match="argument 'weight' has shape \\[3\\] but normalized_shape is \\[4\\]"):
        K.rms_norm(x, (4,), torch.ones(3, device=device))
    with pytest.raises(TypeError, match="argument 'weight' has dtype .*'x' has dtype"):
        K.rms_norm(x, (4,), torch.ones(4, device=device, dtype=torch.float16))
    with pytest.raises(ValueError, match="argument 'normalized_shape' is \\[5\\]"):
        K.rms_norm(x, 5)
    with pytest.raises(ValueError, match="argument 'grad' has shape \\[3\\]"):
        _, rstd = torch.ops.kernelwright.rms_norm(x, [4])
        torch.ops.kernelwright.rms_norm_backward(torch.ones(3, device=device), x, rstd, [4], None)
    f = torch.compile(lambda t: K.rms_norm(t, (2,)), fullgraph=True, backend="aot_eager")
    with pytest.raises(Exception, match="argument 'normalized_shape' is \\[2\\]"):
        f(x)
    assert_close_to_reference(K.rms_norm(x, (4,)), _ref(x, (4,), None), torch.float32)


@pytest.mark.cuda
def test_cpu_weight_with_cuda_x():
    x = torch.randn(3, 4, device="cuda")
    with pytest.raises(ValueError, match="argument 'weight' is on cpu but argument 'x' is on cuda"):
        K.rms_norm(x, (4,), torch.ones(4))


@pytest.mark.cuda
def test_llm_shape():
    # The problem's rows: 4096 wide, a block per row, many rows, no split.
    x = _x((8192, 4096), torch.bfloat16, "cuda")
    w = _weight((4096,), torch.bfloat16, "cuda")
    assert_close_to_reference(K.rms_norm(x, (4096,), w), _ref(x, (4096,), w), torch.bfloat16)

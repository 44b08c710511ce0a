"""linear: bias and activation in the GEMM epilogue, float32 precision following torch's knob."""

import contextlib

import pytest
import torch
import torch.nn.functional as F

import kernelwright.ops as K
from reference import poison, randn

ACTS = [None, "relu", "sigmoid", "gelu", "gelu_tanh"]
HALF = [torch.float16, torch.bfloat16]


@contextlib.contextmanager
def precision(p):
    old = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision(p)
    try:
        yield
    finally:
        torch.set_float32_matmul_precision(old)


def torch_linear(x, w, b, act):
    y = F.linear(x, w, b)
    if act == "relu":
        return torch.relu(y)
    if act == "sigmoid":
        return torch.sigmoid(y)
    if act in ("gelu", "gelu_tanh"):
        return F.gelu(y, approximate="tanh" if act == "gelu_tanh" else "none")
    return y


def rel_err(got, ref64):
    return ((got.double() - ref64).norm() / ref64.norm().clamp_min(1e-300)).item()


def make(m, n, k, dtype, device, bias=True):
    g = torch.Generator().manual_seed(m * 7919 + n * 31 + k)
    x = randn((m, k), dtype, device, scale=1.0, generator=g, mean=0.3)
    w = randn((n, k), dtype, device, scale=max(k, 1) ** -0.5, generator=g)
    b = randn((n,), dtype, device, generator=g) if bias else None
    return x, w, b


def check_against_torch(got, x, w, b, act, factor=2.0, floor=None):
    """Error against float64 no worse than `factor` x PyTorch's own at the same precision."""
    ref = torch_linear(x.double(), w.double(), None if b is None else b.double(), act)
    eager = torch_linear(x, w, b, act)
    assert got.shape == eager.shape and got.dtype == eager.dtype and got.device == eager.device
    assert torch.isfinite(got).all(), "non-finite values (a tile left unwritten?)"
    limit = factor * rel_err(eager, ref)
    if floor is not None:
        limit = max(limit, floor)
    assert rel_err(got, ref) <= limit, (rel_err(got, ref), rel_err(eager, ref))


SHAPES = [(1, 1, 1), (7, 5, 3), (64, 128, 256), (300, 520, 1000), (2, 33, 64), (129, 256, 72)]


@pytest.mark.parametrize("mnk", SHAPES, ids=str)
@pytest.mark.parametrize("act", ACTS, ids=str)
@pytest.mark.parametrize("prec", ["highest", "high"])
def test_float32_matches_torch_at_each_precision(device, mnk, act, prec):
    x, w, b = make(*mnk, torch.float32, device)
    poison(device)
    with precision(prec):
        got = K.linear(x, w, b, act)
        check_against_torch(got, x, w, b, act, floor=1e-6)


@pytest.mark.parametrize("dtype", HALF + [torch.float64], ids=str)
@pytest.mark.parametrize("act", ACTS, ids=str)
@pytest.mark.parametrize("bias", [True, False])
def test_other_dtypes(device, dtype, act, bias):
    if device == "cpu" and dtype in HALF:
        pytest.skip("half-precision GEMM on the CPU is ATen's, not ours")
    x, w, b = make(257, 384, 512, dtype, device, bias)
    poison(device)
    check_against_torch(K.linear(x, w, b, act), x, w, b, act, floor=1e-14 if dtype == torch.float64 else None)


def test_batched_and_non_contiguous_input(device):
    x, w, b = make(96, 128, 256, torch.float32, device)
    x3 = x.view(4, 24, 256)
    for prec in ("highest", "high"):
        with precision(prec):
            got = K.linear(x3, w, b, "relu")
            assert got.shape == (4, 24, 128)
            check_against_torch(got, x3, w, b, "relu", floor=1e-6)
            wide = randn((96, 512), torch.float32, device)[:, ::2]  # stride 2 along k
            check_against_torch(K.linear(wide, w, b, "sigmoid"), wide, w, b, "sigmoid", floor=1e-6)
            wt = w.t().contiguous().t()  # a transposed weight
            check_against_torch(K.linear(x, wt, b), x, wt, b, None, floor=1e-6)


def test_empty(device):
    x, w, b = make(0, 16, 32, torch.float32, device)
    assert K.linear(x, w, b).shape == (0, 16)
    x, w, b = make(5, 16, 0, torch.float32, device)
    torch.testing.assert_close(K.linear(x, w, b, "relu"), torch.relu(b).expand(5, 16))


@pytest.mark.cuda
@pytest.mark.parametrize("n", [1024, 2048])
def test_highest_is_fp32_accurate_on_long_k(n):
    """The 'highest' bar: error against float64 within 2x cuBLAS fp32's, on a long k where
    tensor-core accumulation without promotion would exceed it."""
    x, w, _ = make(n, n, 4 * n, torch.float32, "cuda", bias=False)
    ref = x.double() @ w.double().t()
    with precision("highest"):
        ours, cublas = rel_err(K.linear(x, w), ref), rel_err(x @ w.t(), ref)
    assert ours <= 2 * cublas, (ours, cublas)


@pytest.mark.parametrize("act", ACTS, ids=str)
def test_gradcheck(device, act):
    x, w, b = make(6, 5, 4, torch.float64, device)
    x.requires_grad_()
    w.requires_grad_()
    b.requires_grad_()
    torch.autograd.gradcheck(lambda *a: K.linear(*a, act), (x, w, b))


@pytest.mark.parametrize("prec", ["highest", "high"])
@pytest.mark.parametrize("act", ["sigmoid", "gelu"])
def test_float32_backward_matches_float64(device, prec, act):
    x, w, b = make(130, 96, 200, torch.float32, device)
    grads = []
    for dtype in (torch.float32, torch.float64):
        leaves = [t.to(dtype).requires_grad_() for t in (x, w, b)]
        with precision(prec):
            out = K.linear(*leaves, act) if dtype == torch.float32 else torch_linear(*leaves, act)
        g = torch.linspace(-1, 1, out.numel(), dtype=dtype, device=device).view(out.shape)
        grads.append(torch.autograd.grad(out, leaves, g))
    for got, want in zip(*grads):
        assert rel_err(got, want) < (5e-6 if prec == "highest" else 5e-3)


def test_opcheck_and_compile(device):
    x, w, b = make(64, 32, 48, torch.float32, device)
    torch.library.opcheck(torch.ops.kernelwright.linear.default, (x, w, b, "gelu"))
    torch.library.opcheck(torch.ops.kernelwright.linear.default, (x, w, None, "none"))
    compiled = torch.compile(lambda *a: K.linear(*a, "sigmoid").sum(), fullgraph=True)
    leaves = [t.clone().requires_grad_() for t in (x, w, b)]
    compiled(*leaves).backward()
    ref = [t.clone().requires_grad_() for t in (x, w, b)]
    torch_linear(*ref, "sigmoid").sum().backward()
    for got, want in zip(leaves, ref):
        torch.testing.assert_close(got.grad, want.grad, rtol=1e-3, atol=1e-4)


def test_bad_input_is_a_clear_error(device):
    x, w, b = make(4, 8, 16, torch.float32, device)
    cases = [
        (lambda: K.linear(x, w, b, "swish"), ValueError, "activation"),
        (lambda: K.linear(x[:, :15], w, b), ValueError, "in_features"),
        (lambda: K.linear(x, w, b[:7]), ValueError, "bias"),
        (lambda: K.linear(x, w.double(), b), TypeError, "weight"),
        (lambda: K.linear(x.long(), w, b), TypeError, "x"),
        (lambda: K.linear(x, w[0], b), ValueError, "weight"),
    ]
    if device == "cuda":
        cases.append((lambda: K.linear(x, w.cpu(), b), ValueError, "weight"))
    for call, exc, word in cases:
        with pytest.raises(exc, match=word):
            call()
    check_against_torch(K.linear(x, w, b), x, w, b, None, floor=1e-6)  # the next call works

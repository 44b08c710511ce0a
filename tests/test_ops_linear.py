"""linear: bias and activation in the GEMM epilogue, float32 precision following torch's knob."""

import contextlib
import os

import pytest
import torch
import torch.nn.functional as F

import kernelwright.ops as K
from reference import poison, randn

ACTS = [None, "relu", "sigmoid", "gelu", "gelu_tanh"]
HALF = [torch.float16, torch.bfloat16]


# On CUDA, how float32 operands meet the tensor cores (KERNELWRIGHT_GEMM_SPLIT). Forced, because
# 'auto' leaves the small shapes of most tests to cuBLAS fp32 ('highest') or one TF32 pass.
SPLITS = ["fp16", "tf32"]


@contextlib.contextmanager
def precision(p, split="fp16"):
    old = torch.get_float32_matmul_precision(), os.environ.get("KERNELWRIGHT_GEMM_SPLIT")
    torch.set_float32_matmul_precision(p)
    os.environ["KERNELWRIGHT_GEMM_SPLIT"] = split
    try:
        yield
    finally:
        torch.set_float32_matmul_precision(old[0])
        if old[1] is None:
            del os.environ["KERNELWRIGHT_GEMM_SPLIT"]
        else:
            os.environ["KERNELWRIGHT_GEMM_SPLIT"] = old[1]


# Precisions to test float32 at: 'highest' and 'high', with each split on CUDA (one on the CPU,
# where the split does not apply).
def float32_modes(device):
    splits = SPLITS if device == "cuda" else SPLITS[:1]
    return [(p, s) for p in ("highest", "high") for s in splits]


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


def tf32(t):
    """t's float32 values rounded to TF32's 10 stored mantissa bits."""
    bits = t.float().contiguous().view(torch.int32)
    return ((bits + 0x1000) & ~0x1FFF).view(torch.float32)


def check_against_torch(got, x, w, b, act, factor=2.0, floor=None):
    """Error against float64 no worse than `factor` x PyTorch's own at the same precision. Below
    'highest' a float32 product may round its operands to TF32 (cuBLAS itself skips that on
    tiny products, where its error is then fp32's): that rounding's error is allowed too."""
    ref = torch_linear(x.double(), w.double(), None if b is None else b.double(), act)
    eager = torch_linear(x, w, b, act)
    assert got.shape == eager.shape and got.dtype == eager.dtype and got.device == eager.device
    assert torch.isfinite(got).all(), "non-finite values (a tile left unwritten?)"
    limit = factor * rel_err(eager, ref)
    if x.dtype == torch.float32 and torch.get_float32_matmul_precision() != "highest":
        rounded = torch_linear(tf32(x).double(), tf32(w).double(), None if b is None else b.double(), act)
        limit = max(limit, factor * rel_err(rounded, ref))
    if floor is not None:
        limit = max(limit, floor)
    assert rel_err(got, ref) <= limit, (rel_err(got, ref), rel_err(eager, ref))


# (m, n, k); k = 16999 takes rows longer than the fp16 split's one-read path holds; an n off 16 bytes
# (300, 517, 1000) runs the split GEMM on a padded output.
SHAPES = [(1, 1, 1), (7, 5, 3), (64, 128, 256), (300, 520, 1000), (300, 517, 1000), (2, 33, 64), (129, 256, 72),
          (24, 40, 16999)]


@pytest.mark.parametrize("mnk", SHAPES, ids=str)
@pytest.mark.parametrize("act", ACTS, ids=str)
def test_float32_matches_torch_at_each_precision(device, mnk, act):
    x, w, b = make(*mnk, torch.float32, device)
    for mode in float32_modes(device):
        poison(device)
        with precision(*mode):
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
    for mode in float32_modes(device):
        with precision(*mode):
            got = K.linear(x3, w, b, "relu")
            assert got.shape == (4, 24, 128)
            check_against_torch(got, x3, w, b, "relu", floor=1e-6)
            wide = randn((96, 512), torch.float32, device)[:, ::2]  # stride 2 along k
            check_against_torch(K.linear(wide, w, b, "sigmoid"), wide, w, b, "sigmoid", floor=1e-6)
            wt = w.t().contiguous().t()  # a transposed weight
            check_against_torch(K.linear(x, wt, b), x, wt, b, None, floor=1e-6)
            for width in (300, 257):  # rows padded: an aligned and an unaligned row stride
                sliced = randn((96, width), torch.float32, device)[:, :256]
                check_against_torch(K.linear(sliced, w, b), sliced, w, b, None, floor=1e-6)


def test_empty(device):
    x, w, b = make(0, 16, 32, torch.float32, device)
    assert K.linear(x, w, b).shape == (0, 16)
    x, w, b = make(5, 16, 0, torch.float32, device)
    torch.testing.assert_close(K.linear(x, w, b, "relu"), torch.relu(b).expand(5, 16))


@pytest.mark.cuda
@pytest.mark.parametrize("split", ["auto"] + SPLITS)
@pytest.mark.parametrize("n", [1024, 2048])
def test_highest_is_fp32_accurate_on_long_k(n, split):
    """The 'highest' bar: error against float64 within 2x cuBLAS fp32's, on a long k where
    tensor-core accumulation without promotion would exceed it."""
    x, w, _ = make(n, n, 4 * n, torch.float32, "cuda", bias=False)
    ref = x.double() @ w.double().t()
    with precision("highest", split):
        ours, cublas = rel_err(K.linear(x, w), ref), rel_err(x @ w.t(), ref)
    assert ours <= 2 * cublas, (ours, cublas)


@pytest.mark.cuda
@pytest.mark.parametrize("mode", [("highest", "fp16"), ("highest", "tf32"), ("high", "fp16")], ids=str)
def test_rows_of_any_magnitude(mode):
    """Rows of x and of the weight scaled by powers of two (fp16 alone spans 2^-24..2^16).
    Scaling by powers of two is exact, so the scaled product divided by the scales must be as
    accurate as cuBLAS's at the same precision, each element counting as much as any other. The
    TF32 split is held to 2^+-30: at 2^+-60 it measured 2.7e-5 against cuBLAS's 2.1e-7 (its
    small products then fall below fp32's normal range; see docs/linear.md)."""
    m, n, k = 192, 256, 1000
    span = 30 if mode[1] == "tf32" else 60
    x, w, _ = make(m, n, k, torch.float32, "cuda", bias=False)
    g = torch.Generator().manual_seed(5)
    sx = torch.pow(2.0, torch.randint(-span, span + 1, (m, 1), generator=g).float()).cuda()
    sw = torch.pow(2.0, torch.randint(-span, span + 1, (n, 1), generator=g).float()).cuda()
    ref = x.double() @ w.double().t()
    with precision(*mode):
        got = K.linear(x * sx, w * sw) / (sx * sw.t())
        cublas = ((x * sx) @ (w * sw).t()) / (sx * sw.t())
    assert torch.isfinite(got).all()
    assert rel_err(got, ref) <= 2 * rel_err(cublas, ref), (rel_err(got, ref), rel_err(cublas, ref))


@pytest.mark.cuda
@pytest.mark.parametrize("split", ["auto", "fp16", "tf32"])
@pytest.mark.parametrize("mnk", [(1024, 1536, 8192), (2048, 2048, 4096)], ids=str)
def test_high_is_as_accurate_as_tf32_on_long_k(split, mnk):
    """'high' may round operands to TF32's 11 bits: one fp16 product on row-scaled operands does
    that at twice TF32's rate, and must be as accurate as cuBLAS's TF32 GEMM. 96 output tiles
    go to the stream-K schedule, 256 to the data-parallel one (on a 132-SM GPU)."""
    x, w, _ = make(*mnk, torch.float32, "cuda", bias=False)
    ref = x.double() @ w.double().t()
    with precision("high", split):
        ours, cublas = rel_err(K.linear(x, w), ref), rel_err(x @ w.t(), ref)
    assert ours <= 2 * cublas, (ours, cublas)


@pytest.mark.cuda
def test_split_choice():
    """'auto' leaves thin GEMMs, where the conversion's extra memory traffic dominates, to cuBLAS
    at the precision asked (bit for bit), and a misspelt choice is a clear error."""
    x, w, _ = make(64, 4096, 8192, torch.float32, "cuda", bias=False)
    for p in ("highest", "high"):
        with precision(p, "auto"):
            assert torch.equal(K.linear(x, w), x @ w.t())
    with precision("highest", "off"):
        assert torch.equal(K.linear(x, w), x @ w.t())
    with precision("highest", "fp32"):
        with pytest.raises(ValueError, match="KERNELWRIGHT_GEMM_SPLIT"):
            K.linear(x, w)
    with precision("highest", "auto"):
        check_against_torch(K.linear(x, w), x, w, None, None)


@pytest.mark.cuda
@pytest.mark.parametrize("mnk", [(300, 517, 1000), (129, 256, 2056), (24, 40, 16999), (640, 384, 4096)],
                         ids=str)
@pytest.mark.parametrize("act", ACTS, ids=str)
def test_highest_cross_products_fused_or_apart(mnk, act, monkeypatch):
    """'highest' with the split's cross products in the one promoting GEMM or summed apart on
    cuBLAS and added in the epilogue: both within fp32's error, fresh weights and a kept one.
    The two sum in different orders, so equal outputs would mean one path ran twice."""
    x, w, b = make(*mnk, torch.float32, "cuda")
    got = {}
    for mode in ("fused", "apart"):
        monkeypatch.setenv("KERNELWRIGHT_GEMM_CROSS", mode)
        with precision("highest"):
            poison("cuda")
            got[mode] = K.linear(x, w, b, act)
            check_against_torch(got[mode], x, w, b, act, floor=1e-6)
            cache = K.WeightCache()
            for _ in range(2):  # the first call converts the weight, the second reuses it
                check_against_torch(K.linear(x, w, b, act, cache=cache), x, w, b, act, floor=1e-6)
    assert not torch.equal(got["fused"], got["apart"])
    monkeypatch.setenv("KERNELWRIGHT_GEMM_CROSS", "sideways")
    with precision("highest"):
        with pytest.raises(ValueError, match="KERNELWRIGHT_GEMM_CROSS"):
            K.linear(x, w, b, act)
    monkeypatch.delenv("KERNELWRIGHT_GEMM_CROSS")
    assert torch.equal(K.linear(x, w, b, act), K.linear(x, w, b, act))  # the next call works


@pytest.mark.cuda
def test_auto_at_highest():
    """'auto' at 'highest' takes the split from 2^31 multiply-adds and m*n/(m+n) >= 192 (from 96
    rows for a kept weight), with its cross products apart from 2^35 and 1024 rows and columns
    (csrc/ops/gemm_split.cpp): within fp32's error, and not cuBLAS's result to the bit."""
    for mnk in [(256, 4096, 8192), (1024, 4096, 8192)]:
        x, w, b = make(*mnk, torch.float32, "cuda")
        with precision("highest", "auto"):
            cache = K.WeightCache()
            for got in (K.linear(x, w, b), K.linear(x, w, b, cache=cache), K.linear(x, w, b, cache=cache)):
                check_against_torch(got, x, w, b, None, factor=1.0)
                assert not torch.equal(got, F.linear(x, w, b))


@pytest.mark.parametrize("act", ACTS, ids=str)
def test_gradcheck(device, act):
    x, w, b = make(6, 5, 4, torch.float64, device)
    x.requires_grad_()
    w.requires_grad_()
    b.requires_grad_()
    torch.autograd.gradcheck(lambda *a: K.linear(*a, act), (x, w, b))


@pytest.mark.parametrize("act", ["sigmoid", "gelu"])
def test_float32_backward_matches_float64(device, act):
    x, w, b = make(130, 96, 200, torch.float32, device)
    for mode in float32_modes(device):
        grads = []
        for dtype in (torch.float32, torch.float64):
            leaves = [t.to(dtype).requires_grad_() for t in (x, w, b)]
            with precision(*mode):
                out = K.linear(*leaves, act) if dtype == torch.float32 else torch_linear(*leaves, act)
                g = torch.linspace(-1, 1, out.numel(), dtype=dtype, device=device).view(out.shape)
                grads.append(torch.autograd.grad(out, leaves, g))
        for got, want in zip(*grads):
            assert rel_err(got, want) < (5e-6 if mode[0] == "highest" else 5e-3), mode


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

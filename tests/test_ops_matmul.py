"""matmul: a @ b for a 2-D b, as linear(a, b.t()) at the same precision rules."""

import pytest
import torch

import kernelwright.ops as K
from reference import poison, randn
from test_ops_linear import check_against_torch, float32_modes, precision


def check(got, a, b, factor=2.0, floor=1e-6):
    """Error against float64 no worse than `factor` x torch.matmul's at the same precision, or,
    below 'highest', than rounding the operands to TF32 (cuBLAS skips that rounding on tiny
    products, which linear's one fp16 product keeps): linear's check of a @ (b^T)^T."""
    assert got.shape == torch.matmul(a, b).shape
    check_against_torch(got.reshape(-1, got.shape[-1]), a.reshape(-1, a.shape[-1]), b.t(), None, None,
                        factor=factor, floor=floor)


def operands(m, k, n, dtype, device):
    g = torch.Generator().manual_seed(m * 131 + k * 7 + n)
    return (randn((m, k), dtype, device, scale=1.0, generator=g, mean=0.2),
            randn((k, n), dtype, device, scale=max(k, 1) ** -0.5, generator=g))


@pytest.mark.parametrize("mkn", [(1, 1, 1), (7, 3, 5), (96, 256, 128), (33, 1000, 65), (8, 4096, 8)], ids=str)
def test_float32_matches_torch_at_each_precision(device, mkn):
    a, b = operands(*mkn, torch.float32, device)
    for mode in float32_modes(device):
        poison(device)
        with precision(*mode):
            check(K.matmul(a, b), a, b)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64], ids=str)
def test_other_dtypes(device, dtype):
    if device == "cpu" and dtype != torch.float64:
        pytest.skip("half-precision GEMM on the CPU is ATen's, not ours")
    a, b = operands(130, 264, 72, dtype, device)
    poison(device)
    check(K.matmul(a, b), a, b, floor=1e-14 if dtype == torch.float64 else 1e-6)


def test_shapes_and_layouts(device):
    a, b = operands(48, 128, 40, torch.float32, device)
    for mode in float32_modes(device):
        with precision(*mode):
            check(K.matmul(a.view(4, 12, 128), b), a.view(4, 12, 128), b)  # batched a
            # 1-D a, as torch.matmul: [n]. torch takes a matrix-vector path that never uses
            # TF32, so below 'highest' the bound is TF32's rounding, which the knob allows.
            check(K.matmul(a[0], b), a[0], b, floor=1e-6 if mode[0] == "highest" else 1e-3)
            bt = b.t().contiguous().t()  # b stored column-major
            check(K.matmul(a, bt), a, bt)
            wide = randn((48, 256), torch.float32, device)[:, ::2]  # stride 2 along k
            check(K.matmul(wide, b), wide, b)


def test_products_no_kernel_takes_are_torch_matmul(device):
    """Where no kernel of ours applies (a thin product under 'auto' on CUDA, anything on the
    CPU), matmul without a gradient is torch.matmul itself, bit for bit, for 1-D, 2-D and
    batched a; with a gradient it goes through linear and still matches."""
    a, b = operands(64, 2048, 48, torch.float32, device)
    for p in ("highest", "high"):
        with precision(p, "auto"):
            for lhs in (a, a[0], a.view(4, 16, 2048)):
                assert torch.equal(K.matmul(lhs, b), torch.matmul(lhs, b))
            leaf = a.clone().requires_grad_()
            K.matmul(leaf, b).sum().backward()
            check(leaf.grad, torch.ones(64, 48, device=device), b.t())


def test_empty(device):
    a, b = operands(0, 16, 8, torch.float32, device)
    assert K.matmul(a, b).shape == (0, 8)
    a, b = operands(5, 0, 8, torch.float32, device)
    torch.testing.assert_close(K.matmul(a, b), torch.zeros(5, 8, device=device))


def test_gradcheck(device):
    a, b = operands(6, 5, 4, torch.float64, device)
    torch.autograd.gradcheck(K.matmul, (a.requires_grad_(), b.requires_grad_()))
    a2 = a.detach().clone().requires_grad_()  # only one side needs a gradient
    K.matmul(a2, b.detach()).sum().backward()
    torch.testing.assert_close(a2.grad, b.detach().sum(1).expand(6, 5))


def test_opcheck_and_compile(device):
    a, b = operands(64, 48, 32, torch.float32, device)
    torch.library.opcheck(torch.ops.kernelwright.matmul.default, (a, b))
    compiled = torch.compile(lambda x, y: torch.sigmoid(K.matmul(x, y)).sum(), fullgraph=True)
    leaves = [t.clone().requires_grad_() for t in (a, b)]
    compiled(*leaves).backward()
    ref = [t.clone().requires_grad_() for t in (a, b)]
    torch.sigmoid(torch.matmul(*ref)).sum().backward()
    for got, want in zip(leaves, ref):
        torch.testing.assert_close(got.grad, want.grad, rtol=1e-3, atol=1e-4)


def test_bad_input_is_a_clear_error(device):
    a, b = operands(4, 16, 8, torch.float32, device)
    cases = [
        (lambda: K.matmul(a, b[:15]), ValueError, "argument 'a' must have k = 15"),
        (lambda: K.matmul(a, b[0]), ValueError, "argument 'b' must be 2-D"),
        (lambda: K.matmul(a, b.expand(2, 16, 8)), ValueError, "argument 'b' must be 2-D"),
        (lambda: K.matmul(a, b.double()), TypeError, "argument 'b' has dtype"),
        (lambda: K.matmul(a.long(), b), TypeError, "argument 'a'"),
        (lambda: K.matmul(a, 2.0), RuntimeError, "type 'Tensor' for argument 'b'"),
    ]
    if device == "cuda":
        cases.append((lambda: K.matmul(a, b.cpu()), ValueError, "argument 'b' is on cpu"))
    for call, exc, word in cases:
        with pytest.raises(exc, match=word):
            call()
    check(K.matmul(a, b), a, b)  # the next call works

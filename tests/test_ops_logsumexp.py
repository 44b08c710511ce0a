"""logsumexp: any dim, rows from 1 to millions long, -inf/+inf/NaN exactly as torch."""

import math

import pytest
import torch

import kernelwright.ops as K
from reference import DTYPES, REDUCTION_CASES, assert_close_to_reference, assert_no_worse_than_torch, poison, randn


def _ref(x, dim, keepdim=False):
    return torch.logsumexp(x.double(), dim, keepdim)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(
    "shape,dim",
    REDUCTION_CASES
    + [
        ((4, 5, 6), (0, 2)),  # non-adjacent dims
        ((4, 5, 6), (1, 2)),
        ((2, 3, 4, 5), (0, 1, 2, 3)),
    ],
    ids=str,
)
@pytest.mark.parametrize("keepdim", [False, True])
def test_matches_float64(device, shape, dim, keepdim, dtype):
    x = randn(shape, dtype, device, scale=4.0)
    poison(device)
    assert_close_to_reference(K.logsumexp(x, dim, keepdim), _ref(x, dim, keepdim), dtype)


@pytest.mark.parametrize("length", [1, 2, 7, 31, 32, 33, 255, 1000, 4096, 4097, 65537, 1000003])
def test_row_lengths(device, length):
    x = randn((3, length), torch.float32, device, scale=10.0)
    assert_close_to_reference(K.logsumexp(x, 1), _ref(x, 1), torch.float32)
    # The row also as a strided column and with a misaligned start.
    assert_close_to_reference(K.logsumexp(x.t(), 0), _ref(x, 1), torch.float32)
    flat = torch.empty(x.numel() + 1, device=device)
    flat[1:] = x.reshape(-1)
    assert_close_to_reference(K.logsumexp(flat[1:].view(3, length), 1), _ref(x, 1), torch.float32)


def test_single_long_row(device):
    x = randn((1, 3_000_017), torch.float32, device, scale=2.0)
    assert_close_to_reference(K.logsumexp(x, 1), _ref(x, 1), torch.float32)


def test_non_contiguous_inputs(device):
    base = randn((6, 40, 9), torch.float32, device)
    for view in (base[:, ::3, :], base.transpose(0, 2), base[..., 1:], base.permute(1, 0, 2)):
        for dim in (0, 1, 2, (0, 2)):
            assert_close_to_reference(K.logsumexp(view, dim), _ref(view, dim), torch.float32)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_special_values_match_torch(device, dtype):
    inf, nan = math.inf, math.nan
    rows = [
        [1.0, -inf, 2.0, 0.5],
        [-inf, -inf, -inf, -inf],
        [inf, 1.0, -2.0, 3.0],
        [inf, -inf, 0.0, 0.0],
        [nan, 1.0, 2.0, 3.0],
        [nan, inf, -inf, 0.0],
        [inf, inf, 1.0, 1.0],
        [-inf, 5.0, -inf, -inf],
        [1e4, -1e4, 0.0, 1e4],
    ]
    x = torch.tensor(rows, dtype=dtype, device=device)
    want = torch.logsumexp(x.double(), 1)
    assert_close_to_reference(K.logsumexp(x, 1), want, dtype)
    # The same values along a long row, where they meet the online rescaling in other lanes.
    long = randn((len(rows), 5000), dtype, device)
    long[:, 4000:4004] = x
    assert_close_to_reference(K.logsumexp(long, 1), torch.logsumexp(long.double(), 1), dtype)


def test_empty(device):
    assert K.logsumexp(torch.empty(0, 5, device=device), 1).shape == (0,)
    out = K.logsumexp(torch.empty(3, 0, device=device), 1)
    assert out.shape == (3,) and bool((out == -math.inf).all())


@pytest.mark.parametrize("dim", [0, 1, 2, (0, 2), -1])
def test_gradcheck(device, dim):
    x = randn((3, 4, 5), torch.float64, device).requires_grad_()
    assert torch.autograd.gradcheck(lambda t: K.logsumexp(t, dim), (x,))
    assert torch.autograd.gradcheck(lambda t: K.logsumexp(t, dim, keepdim=True), (x,))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
def test_backward_low_precision(device, dtype):
    x = randn((9, 1031), dtype, device).requires_grad_()
    g = randn((9,), dtype, device)
    (gx,) = torch.autograd.grad(K.logsumexp(x, 1), x, g)
    (eager,) = torch.autograd.grad(torch.logsumexp(x, 1), x, g)
    x64 = x.detach().double().requires_grad_()
    (want,) = torch.autograd.grad(torch.logsumexp(x64, 1), x64, g.double())
    # The backward reads the forward result, rounded to `dtype`, as torch's does.
    assert_no_worse_than_torch(gx, eager, want)

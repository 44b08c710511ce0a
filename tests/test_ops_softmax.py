"""softmax: any dim, rows from 1 to millions long, NaN and infinities exactly as torch."""

import math

import pytest
import torch
from torch.library import opcheck

import kernelwright.ops as K
from reference import DTYPES, REDUCTION_CASES, assert_close_to_reference, assert_no_worse_than_torch, poison, randn


def _ref(x, dim):
    return torch.softmax(x.double(), dim)


def _x(shape, dtype, device, scale=4.0):
    return randn(shape, dtype, device, scale=scale, mean=1.5)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(
    "shape,dim",
    REDUCTION_CASES
    + [
        ((4, 64), 1),  # whole 16-byte vectors
        ((3, 1030), 1),  # a block per row
        ((4, 5, 6), 0),
        ((4, 5, 6), 2),
        ((), -1),
    ],
    ids=str,
)
def test_matches_float64(device, shape, dim, dtype):
    x = _x(shape, dtype, device)
    poison(device)
    assert_close_to_reference(K.softmax(x, dim), _ref(x, dim), dtype)


@pytest.mark.parametrize("length", [1, 2, 7, 31, 32, 33, 255, 1024, 1025, 4096, 4097, 65537, 100003])
def test_row_lengths(device, length):
    x = _x((3, length), torch.float32, device, scale=10.0)
    want = _ref(x, 1)
    assert_close_to_reference(K.softmax(x, 1), want, torch.float32)
    # The row as a strided column, and with a start that is not 16-byte aligned.
    assert_close_to_reference(K.softmax(x.t(), 0), want.t(), torch.float32)
    flat = torch.empty(x.numel() + 1, device=device)
    flat[1:] = x.reshape(-1)
    assert_close_to_reference(K.softmax(flat[1:].view(3, length), 1), want, torch.float32)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_long_rows(device, dtype):
    x = _x((2, 1_000_003), dtype, device, scale=2.0)
    assert_close_to_reference(K.softmax(x, 1), _ref(x, 1), dtype)
    x = _x((1, 2_097_152), dtype, device, scale=2.0)
    assert_close_to_reference(K.softmax(x, -1), _ref(x, -1), dtype)


def test_non_contiguous_inputs(device):
    base = _x((6, 40, 9), torch.float32, device)
    for view in (base[:, ::3, :], base.transpose(0, 2), base[..., 1:], base.permute(1, 0, 2)):
        for dim in (0, 1, 2, -1):
            out = K.softmax(view, dim)
            assert out.is_contiguous()
            assert_close_to_reference(out, _ref(view, dim), torch.float32)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_special_values_match_torch(device, dtype):
    inf, nan = math.inf, math.nan
    rows = [
        [1.0, -inf, 2.0, 0.5],
        [-inf, -inf, -inf, -inf],
        [inf, 1.0, -2.0, 3.0],
        [nan, 1.0, 2.0, 3.0],
        [-inf, 5.0, -inf, -inf],
        [1e4, -1e4, 0.0, 1e4],
    ]
    x = torch.tensor(rows, dtype=dtype, device=device)
    assert_close_to_reference(K.softmax(x, 1), _ref(x, 1), dtype)
    # The same values inside long rows, where they meet the online rescaling in other lanes.
    long = _x((len(rows), 5000), dtype, device)
    long[:, 4000:4004] = x
    assert_close_to_reference(K.softmax(long, 1), _ref(long, 1), dtype)


def test_empty(device):
    assert K.softmax(torch.empty(0, 5, device=device), 1).shape == (0, 5)
    assert K.softmax(torch.empty(3, 0, device=device), 1).shape == (3, 0)
    assert K.softmax(torch.empty(3, 0, 4, device=device), 2).shape == (3, 0, 4)


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_gradcheck(device, dim):
    x = _x((3, 4, 5), torch.float64, device).requires_grad_()
    assert torch.autograd.gradcheck(lambda t: K.softmax(t, dim), (x,))


@pytest.mark.parametrize("shape,dim", [((5, 100003), 1), ((300, 7), 0), ((3, 4097), 1)], ids=str)
def test_backward_matches_float64(device, shape, dim):
    x = _x(shape, torch.float32, device).requires_grad_()
    g = randn(shape, torch.float32, device)
    (gx,) = torch.autograd.grad(K.softmax(x, dim), x, g)
    x64 = x.detach().double().requires_grad_()
    (want,) = torch.autograd.grad(torch.softmax(x64, dim), x64, g.double())
    assert_close_to_reference(gx, want, torch.float32)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_backward_low_precision(device, dtype):
    x = _x((9, 1031), dtype, device).requires_grad_()
    g = randn((9, 1031), dtype, device)
    (gx,) = torch.autograd.grad(K.softmax(x, 1), x, g)
    (eager,) = torch.autograd.grad(torch.softmax(x, 1), x, g)
    x64 = x.detach().double().requires_grad_()
    (want,) = torch.autograd.grad(torch.softmax(x64, 1), x64, g.double())
    # The backward reads the forward output, rounded to `dtype`, as torch's does.
    assert_no_worse_than_torch(gx, eager, want)


def test_opcheck(device):
    r = lambda *s, g=True: _x(s, torch.float32, device).requires_grad_(g)  # noqa: E731
    ops = torch.ops.kernelwright
    opcheck(ops.softmax.default, (r(7, 9), 1))
    opcheck(ops.softmax.default, (r(3, 4, 5), 0))
    opcheck(ops.softmax.default, (r(4, 6)[:, ::2], -1))
    opcheck(ops.softmax_backward.default, (r(5, 3, g=False), r(5, 3, g=False), 1))


def test_compile_fullgraph_forward_and_backward(device):
    backend = "inductor" if torch.device(device).type == "cuda" else "aot_eager"
    torch._dynamo.reset()
    compiled = torch.compile(lambda t: K.softmax(t * 2.0, 1).sum(0), fullgraph=True, backend=backend)
    x = _x((16, 33), torch.float32, device).requires_grad_()
    out = compiled(x)
    ref = torch.softmax(x * 2.0, 1).sum(0)
    torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-6)
    g = randn((33,), torch.float32, device)
    (got,) = torch.autograd.grad(out, x, g)
    (want,) = torch.autograd.grad(ref, x, g)
    torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.bool], ids=str)
def test_integer_dtype(device, dtype):
    with pytest.raises(TypeError, match="argument 'x'.*floating-point"):
        K.softmax(torch.ones(4, 4, dtype=dtype, device=device), 1)


def test_bad_arguments(device):
    x = torch.randn(3, 4, device=device)
    with pytest.raises(IndexError, match="argument 'dim' is 2"):
        K.softmax(x, 2)
    with pytest.raises(IndexError, match="argument 'dim' is -3"):
        K.softmax(x, -3)
    with pytest.raises(ValueError, match="argument 'grad' has shape \\[3\\]"):
        torch.ops.kernelwright.softmax_backward(torch.randn(3, device=device), x, 1)
    f = torch.compile(lambda t: K.softmax(t, 5), fullgraph=True, backend="aot_eager")
    with pytest.raises(Exception, match="argument 'dim' is 5"):
        f(x)
    assert_close_to_reference(K.softmax(x, 1), _ref(x, 1), torch.float32)


@pytest.mark.cuda
def test_cpu_tensor_with_cuda_tensor():
    y = torch.randn(3, 4, device="cuda")
    with pytest.raises(ValueError, match="argument 'grad' is on cpu but argument 'y' is on cuda"):
        torch.ops.kernelwright.softmax_backward(torch.randn(3, 4), y, 1)


@pytest.mark.cuda
def test_kernelbench_shape_rows():
    # KernelBench's 4096 x 393216 rows, fewer of them: a block per row, no split.
    x = _x((256, 393216), torch.float32, "cuda")
    out = K.softmax(x, 1)
    for i in range(0, 256, 64):
        assert_close_to_reference(out[i : i + 64], _ref(x[i : i + 64], 1), torch.float32)


@pytest.mark.cuda
def test_few_columns_move_the_dim_last():
    x = _x((100003, 3), torch.float32, "cuda")
    assert_close_to_reference(K.softmax(x, 0), _ref(x, 0), torch.float32)
    x = _x((2, 300, 70000), torch.float16, "cuda", scale=1.0)  # a thread per column
    assert_close_to_reference(K.softmax(x, 1), _ref(x, 1), torch.float16)

"""Bad input raises a Python exception naming the argument, before anything is launched, and
the next call on the same device still works."""

import pytest
import torch

import kernelwright.ops as K
from reference import assert_close_to_reference, randn


def _still_works(device):
    x = randn((64, 33), torch.float32, device)
    assert_close_to_reference(K.sigmoid(x), torch.sigmoid(x.double()), torch.float32)
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize()


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8, torch.bool], ids=str)
def test_integer_and_bool_dtypes(device, dtype):
    x = torch.ones(4, 4, dtype=dtype, device=device)
    f = torch.ones(4, 4, device=device)
    for call, arg in (
        (lambda: K.elu(x), "'x'"),
        (lambda: K.sigmoid(x), "'x'"),
        (lambda: K.square(x), "'x'"),
        (lambda: K.mul(f, x), "'b'"),
        (lambda: K.add(x, f), "'a'"),
        (lambda: K.logsumexp(x, 0), "'x'"),
    ):
        with pytest.raises(TypeError, match=arg + ".*floating-point"):
            call()
    _still_works(device)


@pytest.mark.cuda
def test_cpu_tensor_with_cuda_tensor():
    a = torch.randn(8, 8, device="cuda")
    b = torch.randn(8, 8)
    with pytest.raises(ValueError, match="argument 'b' is on cpu"):
        K.mul(a, b)
    with pytest.raises(ValueError, match="argument 'a' is on cpu|argument 'b' is on cuda"):
        K.add(b, a)
    _still_works("cuda")


@pytest.mark.cuda
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_tensors_on_different_gpus():
    a = torch.randn(8, device="cuda:0")
    b = torch.randn(8, device="cuda:1")
    with pytest.raises(ValueError, match="argument 'b' is on cuda:1"):
        K.mul(a, b)
    _still_works("cuda:0")


def test_shapes_that_do_not_broadcast(device):
    a = torch.randn(3, 4, device=device)
    b = torch.randn(5, device=device)
    with pytest.raises(ValueError, match="argument 'b' has shape \\[5\\].*cannot be broadcast"):
        K.mul(a, b)
    with pytest.raises(ValueError, match="argument 'b'"):
        K.add(a, torch.randn(2, 4, device=device))
    _still_works(device)


def test_dim_out_of_range(device):
    x = torch.randn(3, 4, device=device)
    with pytest.raises(IndexError, match="argument 'dim' is 2"):
        K.logsumexp(x, 2)
    with pytest.raises(IndexError, match="argument 'dim' is -3"):
        K.logsumexp(x, -3)
    with pytest.raises(ValueError, match="more than once"):
        K.logsumexp(x, (1, -1))
    _still_works(device)


def test_dim_of_the_wrong_type(device):
    """A TypeError naming the argument, as torch's own functions raise, not the dispatcher's
    schema error about a C++ 'List[int]'."""
    x = torch.randn(3, 4, device=device)
    for call, arg in (
        (lambda: K.logsumexp(x, "a"), "dim"),
        (lambda: K.logsumexp(x, [0, "a"]), "dim"),
        (lambda: K.logsumexp(x, 1.0), "dim"),
        (lambda: K.logsumexp(x, None), "dim"),
        (lambda: K.logsumexp(x, True), "dim"),
        (lambda: K.softmax(x, "a"), "dim"),
        (lambda: K.softmax(x, 1.0), "dim"),
        (lambda: K.layer_norm(x, "a"), "normalized_shape"),
        (lambda: K.rms_norm(x, [4.0]), "normalized_shape"),
    ):
        with pytest.raises(TypeError, match="argument '%s' must be an int" % arg):
            call()
    _still_works(device)


def test_not_a_tensor(device):
    with pytest.raises(TypeError, match="argument 'b' must be a tensor or a Python number"):
        K.mul(torch.ones(2, device=device), "two")
    _still_works(device)


def test_errors_under_compile(device):
    f = torch.compile(lambda t: K.sigmoid(t), fullgraph=True, backend="aot_eager")
    with pytest.raises(Exception, match="argument 'x' must be a floating-point tensor"):
        f(torch.ones(3, dtype=torch.int64, device=device))
    _still_works(device)

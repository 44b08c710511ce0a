"""elu, sigmoid, square, mul, add: values against float64, gradients, layouts, broadcasting."""

import pytest
import torch
import torch.nn.functional as F

import kernelwright.ops as K
from reference import DTYPES, assert_close_to_reference, assert_no_worse_than_torch, poison, randn

UNARY = {
    "elu": (lambda x: K.elu(x, 0.7), lambda x: F.elu(x, 0.7)),
    "elu_default": (K.elu, F.elu),
    "sigmoid": (K.sigmoid, torch.sigmoid),
    "square": (K.square, torch.square),
}
BINARY = {
    "mul": (K.mul, torch.mul),
    "add": (K.add, torch.add),
    "add_alpha": (lambda a, b: K.add(a, b, alpha=-2.5), lambda a, b: torch.add(a, b, alpha=-2.5)),
}

# Odd sizes, so neither the vector width nor the block size divides them.
SHAPES = [(1,), (7,), (33, 65), (3, 5, 129), (1027, 3), (2, 3, 4, 5, 6)]


def _views(x):
    """The same values in different layouts: dense, transposed, strided slice, offset slice."""
    yield "dense", x
    if x.dim() >= 2:
        yield "transposed", x.transpose(0, -1).contiguous().transpose(0, -1)
    big = torch.zeros(x.shape[:-1] + (x.shape[-1] * 2 + 1,), dtype=x.dtype, device=x.device)
    big[..., 1::2] = x
    yield "step2", big[..., 1::2]
    flat = torch.empty(x.numel() + 1, dtype=x.dtype, device=x.device)
    flat[1:] = x.reshape(-1)
    yield "offset", flat[1:].view(x.shape)  # misaligned for 16-byte vectors


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_matches_float64(device, name, shape, dtype):
    ours, ref = UNARY[name]
    x = randn(shape, dtype, device)
    want = ref(x.double())
    for layout, v in _views(x):
        poison(device)
        got = ours(v)
        assert_close_to_reference(got, want, dtype)
        assert got.device == x.device, layout


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize(
    "shape_a,shape_b",
    [
        ((33, 65), (33, 65)),  # same shape
        ((33, 65), ()),  # 0-dim scalar
        ((33, 65), (1,)),  # one-element tensor
        ((33, 65), (65,)),  # row
        ((33, 65), (33, 1)),  # column
        ((3, 1, 5), (1, 4, 1)),  # both broadcast
        ((), (6, 7)),  # scalar first
        ((5, 1), (5, 1)),
    ],
    ids=str,
)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_matches_float64(device, name, shape_a, shape_b, dtype):
    ours, ref = BINARY[name]
    a = randn(shape_a, dtype, device)
    b = randn(shape_b, dtype, device)
    poison(device)
    assert_close_to_reference(ours(a, b), ref(a.double(), b.double()), dtype)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_noncontiguous_operands(device, name):
    ours, ref = BINARY[name]
    a = randn((40, 30), torch.float32, device).t()
    b = randn((30, 80), torch.float32, device)[:, ::2]
    assert_close_to_reference(ours(a, b), ref(a.double(), b.double()), torch.float32)


def test_cpu_scalar_with_device_tensor(device):
    a = randn((17, 9), torch.float32, device)
    s = torch.tensor(-1.75)
    assert_close_to_reference(K.mul(a, s), a.double() * -1.75, torch.float32)
    assert_close_to_reference(K.add(s, a), a.double() - 1.75, torch.float32)
    assert_close_to_reference(K.mul(a, 3), a.double() * 3, torch.float32)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_python_number_is_taken_in_the_compute_type(device, dtype):
    """0.1 multiplies a bfloat16 tensor as float 0.1, as in ``x * 0.1``, not rounded to
    bfloat16 first; and a number takes the same C++ path (and autograd node) as a tensor."""
    a = randn((33, 65), dtype, device).requires_grad_()
    for got in (K.mul(a, 0.1), K.mul(0.1, a)):
        assert got.dtype == dtype
        torch.testing.assert_close(got, a * 0.1, rtol=0, atol=0)
    # torch's own CPU add rounds the number to the tensor's dtype first: compare with float64.
    assert_close_to_reference(K.add(a, -0.3), a.double() - 0.3, dtype)
    via_tensor = K.mul(a, torch.tensor(0.1, dtype=torch.float64))
    assert type(K.mul(a, 0.1).grad_fn).__name__ == type(via_tensor.grad_fn).__name__
    (grad,) = torch.autograd.grad(K.mul(a, 0.1).sum(), a)
    torch.testing.assert_close(grad, torch.full_like(a, 0.1), rtol=0, atol=0)


def test_type_promotion_follows_torch(device):
    a = randn((8, 8), torch.float16, device)
    b = randn((8, 8), torch.float32, device)
    assert K.mul(a, b).dtype == torch.mul(a, b).dtype == torch.float32
    s = torch.tensor(2.0, dtype=torch.float64, device=device)
    assert K.mul(a, s).dtype == torch.mul(a, s).dtype == torch.float16
    assert K.add(a, b.to(torch.bfloat16)).dtype == torch.float32


def _scalars(device):
    """Scalars of every kind torch.mul takes beside a floating-point tensor; their values are
    exact in every dtype, so that torch rounding them first or not makes no difference."""
    yield "int", 3
    yield "float", -1.75
    for where in sorted({"cpu", device}):
        yield "int64 0-dim " + where, torch.tensor(-2, device=where)
        yield "int32 0-dim " + where, torch.tensor(5, dtype=torch.int32, device=where)
        yield "bool 0-dim " + where, torch.tensor(True, device=where)
        yield "float64 0-dim " + where, torch.tensor(2.5, dtype=torch.float64, device=where)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(17, 9), ()], ids=str)
def test_scalar_operands_follow_torch(device, dtype, shape):
    """Result dtype and values of torch.mul and torch.add, scalar first or second, beside a
    tensor or beside a 0-dim tensor (where torch's promotion of the pair decides the dtype)."""
    x = randn(shape, dtype, device)
    for kind, s in _scalars(device):
        s64 = s.double() if isinstance(s, torch.Tensor) else s
        for ours, ref in (BINARY["mul"], BINARY["add"], BINARY["add_alpha"]):
            for args, args64 in (((x, s), (x.double(), s64)), ((s, x), (s64, x.double()))):
                got = ours(*args)
                assert got.dtype == ref(*args).dtype, kind
                assert_close_to_reference(got, ref(*args64), got.dtype)


def test_output_layout_matches_torch(device):
    x = randn((6, 10), torch.float32, device).t()
    for ours, ref in (UNARY["sigmoid"], UNARY["square"]):
        assert ours(x).stride() == ref(x).stride()
    b = randn((6,), torch.float32, device)
    assert K.mul(x, b).stride() == torch.mul(x, b).stride()


@pytest.mark.parametrize("name", sorted(UNARY) + sorted(BINARY))
def test_empty(device, name):
    fns = UNARY.get(name) or BINARY[name]
    args = [torch.empty(0, 5, device=device)] * (1 if name in UNARY else 2)
    out = fns[0](*args)
    assert out.shape == (0, 5) and out.device.type == torch.device(device).type


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_gradcheck(device, name):
    x = randn((4, 7), torch.float64, device).requires_grad_()
    assert torch.autograd.gradcheck(UNARY[name][0], (x,))


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shape_b", [(4, 7), (7,), (4, 1), ()], ids=str)
def test_binary_gradcheck(device, name, shape_b):
    a = randn((4, 7), torch.float64, device).requires_grad_()
    b = randn(shape_b, torch.float64, device).requires_grad_()
    assert torch.autograd.gradcheck(BINARY[name][0], (a, b))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_gradients_match_torch_low_precision(device, dtype):
    x = randn((31, 17), dtype, device).requires_grad_()
    y = randn((31, 17), dtype, device).requires_grad_()
    g = randn((31, 17), dtype, device)
    for name, (ours, ref) in UNARY.items():
        (gx,) = torch.autograd.grad(ours(x), x, g)
        x64 = x.detach().double().requires_grad_()
        (want,) = torch.autograd.grad(ref(x64), x64, g.double())
        if name == "sigmoid":
            # Its backward reads the saved output, rounded to the low dtype, as torch's does:
            # where 1 - sigmoid(x) keeps few bits, torch's own gradient misses float64's by more
            # than the tolerance (about one draw in thirty in bfloat16).
            (eager,) = torch.autograd.grad(ref(x), x, g)
            assert_no_worse_than_torch(gx, eager, want)
        else:
            assert_close_to_reference(gx, want, dtype)
    for ours, ref in BINARY.values():
        ga, gb = torch.autograd.grad(ours(x, y), (x, y), g)
        x64, y64 = (t.detach().double().requires_grad_() for t in (x, y))
        wa, wb = torch.autograd.grad(ref(x64, y64), (x64, y64), g.double())
        assert_close_to_reference(ga, wa, dtype)
        assert_close_to_reference(gb, wb, dtype)


def test_one_gradient_only(device):
    a = randn((5, 3), torch.float32, device).requires_grad_()
    b = randn((5, 3), torch.float32, device)
    (ga,) = torch.autograd.grad(K.mul(a, b).sum(), a)
    assert_close_to_reference(ga, b.double(), torch.float32)


def _registered(name):
    """The op through torch.library, as torch.compile sees it: the other autograd path."""
    op = getattr(torch.ops.kernelwright, name.split("_")[0]).default
    return {"elu": lambda x: op(x, 0.7), "elu_default": op, "add_alpha": lambda a, b: op(a, b, alpha=-2.5)}.get(name, op)


def _walk_twice_raises(fn, args):
    out = fn(*args).sum()
    out.backward(retain_graph=True)
    out.backward()  # a retained graph can be walked again
    try:
        out.backward()
    except RuntimeError as exc:
        assert "second time" in str(exc)
        return True
    return False


@pytest.mark.parametrize("path", ["fast", "registered"])
def test_graph_semantics_match_torch(device, path):
    """Both autograd paths keep torch's rules: a freed graph that saved tensors cannot be
    walked again (torch's own ops raise the same way), saved tensors pass through saved-tensor
    hooks, and a second derivative, which no backward op has, is an error rather than a
    silently wrong number."""
    x = randn((4, 7), torch.float64, device).requires_grad_()
    y = randn((4, 7), torch.float64, device).requires_grad_()
    for name, (ours, ref) in list(UNARY.items()) + list(BINARY.items()):
        fn = ours if path == "fast" else _registered(name)
        args = (x,) if name in UNARY else (x, y)
        assert _walk_twice_raises(fn, args) == _walk_twice_raises(ref, args), name
        packed = []
        with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
            torch.autograd.grad(fn(*args).sum(), x)
        assert name.startswith("add") or packed, name  # add saves no tensors
        if name.startswith("add"):
            continue  # add's backward is made of differentiable ops
        (g,) = torch.autograd.grad(fn(*args).sum(), x, create_graph=True)
        with pytest.raises(RuntimeError, match="not implemented"):
            torch.autograd.grad(g.sum(), x)

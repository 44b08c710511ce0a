"""Every op is a well-formed custom op: opcheck passes, torch.compile(fullgraph=True) traces it
without graph breaks and computes the same values, with the same gradients."""

import pytest
import torch
from torch.library import opcheck

import kernelwright.ops as K
from reference import randn


def _samples(device):
    r = lambda *s, g=True: randn(s, torch.float32, device).requires_grad_(g)  # noqa: E731
    ops = torch.ops.kernelwright
    return [
        (ops.elu.default, (r(5, 7), 0.3)),
        (ops.elu.default, (r(2, 3, 4).transpose(0, 2), 1.0)),
        (ops.sigmoid.default, (r(33),)),
        (ops.square.default, (r(4, 9)[:, ::2],)),
        (ops.mul.default, (r(6, 5), r(5))),
        (ops.mul.default, (r(6, 5), r(6, 5))),
        (ops.mul.default, (r(3, 1), r(1, 4))),
        (ops.add.default, (r(6, 5), r(6, 1)), {"alpha": 2.0}),
        (ops.add.default, (r(6, 5), r(6, 5))),
        (ops.logsumexp.default, (r(7, 9), [1], False)),
        (ops.logsumexp.default, (r(3, 4, 5), [0, 2], True)),
        (ops.elu_backward.default, (r(5, 3, g=False), r(5, 3, g=False), 0.5)),
        (ops.sigmoid_backward.default, (r(5, 3, g=False), r(5, 3, g=False))),
        (ops.square_backward.default, (r(5, 3, g=False), r(5, 3, g=False))),
        (ops.mul_backward.default, (r(5, 3, g=False), r(5, 3, g=False), r(3, g=False))),
        (ops.logsumexp_backward.default, (r(5, g=False), r(5, 3, g=False), r(5, g=False), [1], False)),
    ]


def test_opcheck(device):
    for sample in _samples(device):
        op, args = sample[0], sample[1]
        kwargs = sample[2] if len(sample) > 2 else {}
        opcheck(op, args, kwargs)


def _model(a, b):
    h = K.elu(K.mul(a, b), 0.5)
    h = K.add(K.square(h), K.sigmoid(h), alpha=0.25)
    return K.logsumexp(h, 1)


def _reference(a, b):
    h = torch.nn.functional.elu(a * b, 0.5)
    h = torch.add(torch.square(h), torch.sigmoid(h), alpha=0.25)
    return torch.logsumexp(h, 1)


def test_compile_fullgraph_forward_and_backward(device):
    # Inductor on GPUs; on the CPU aot_eager traces the same graph without a C++ compile.
    backend = "inductor" if torch.device(device).type == "cuda" else "aot_eager"
    torch._dynamo.reset()
    compiled = torch.compile(_model, fullgraph=True, backend=backend)
    a = randn((16, 33), torch.float32, device).requires_grad_()
    b = randn((33,), torch.float32, device).requires_grad_()
    out = compiled(a, b)
    ref = _reference(a, b)
    torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-5)
    got = torch.autograd.grad(out.sum(), (a, b))
    want = torch.autograd.grad(ref.sum(), (a, b))
    for g, w in zip(got, want):
        torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-5)


def test_compiled_graph_calls_kernelwright_ops(device):
    seen = []

    def backend(gm, example_inputs):
        seen.extend(str(n.target) for n in gm.graph.nodes if n.op == "call_function")
        return gm

    torch._dynamo.reset()
    compiled = torch.compile(_model, fullgraph=True, backend=backend)
    compiled(randn((4, 5), torch.float32, device), randn((5,), torch.float32, device))
    assert {"kernelwright.elu.default", "kernelwright.logsumexp.default"} <= set(seen), seen


@pytest.mark.parametrize("name", ["elu", "sigmoid", "square", "mul", "add", "logsumexp"])
def test_public_names_are_documented(name):
    fn = getattr(K, name)
    assert fn.__doc__ and "Same as" in fn.__doc__


FAST_PATH_CASES = ["elu", "sigmoid", "square", "mul", "add", "logsumexp", "softmax", "layer_norm",
                   "rms_norm", "rms_norm_eps", "linear", "linear_gelu", "linear_frozen", "matmul"]


@pytest.mark.parametrize("name", FAST_PATH_CASES)
def test_eager_fast_path_and_registered_autograd_agree(device, name):
    """kernelwright.ops in eager mode uses a C++ autograd node; torch.ops, torch.compile and
    opcheck use the autograd registered from Python. Both must give the same values and grads."""
    ops = torch.ops.kernelwright
    r = lambda *s, g=True: randn(s, torch.float32, device).requires_grad_(g)  # noqa: E731
    a, b, w, bias, m = r(6, 9), r(9), r(5, 9), r(5), r(9, 4)
    public, registered, inputs = {
        "elu": (lambda: K.elu(a, 0.3), lambda: ops.elu(a, 0.3), (a,)),
        "sigmoid": (lambda: K.sigmoid(a), lambda: ops.sigmoid(a), (a,)),
        "square": (lambda: K.square(a), lambda: ops.square(a), (a,)),
        "mul": (lambda: K.mul(a, b), lambda: ops.mul(a, b), (a, b)),
        "add": (lambda: K.add(a, b, alpha=-1.5), lambda: ops.add(a, b, alpha=-1.5), (a, b)),
        "logsumexp": (lambda: K.logsumexp(a, 1), lambda: ops.logsumexp(a, [1]), (a,)),
        "softmax": (lambda: K.softmax(a, 0), lambda: ops.softmax(a, 0), (a,)),
        "layer_norm": (lambda: K.layer_norm(a, 9, b, b * 2),
                       lambda: ops.layer_norm(a, [9], b, b * 2)[0], (a, b)),
        "rms_norm": (lambda: K.rms_norm(a, [9], b), lambda: ops.rms_norm(a, [9], b)[0], (a, b)),
        "rms_norm_eps": (lambda: K.rms_norm(a, (6, 9), eps=0.5),
                         lambda: ops.rms_norm(a, [6, 9], None, 0.5)[0], (a,)),
        "linear": (lambda: K.linear(a, w, bias), lambda: ops.linear(a, w, bias), (a, w, bias)),
        "linear_gelu": (lambda: K.linear(a, w, None, "gelu"), lambda: ops.linear(a, w, None, "gelu"),
                        (a, w)),
        "linear_frozen": (lambda: K.linear(a, w.detach(), bias, "sigmoid"),
                          lambda: ops.linear(a, w.detach(), bias, "sigmoid"), (a, bias)),
        "matmul": (lambda: K.matmul(a, m), lambda: ops.matmul(a, m), (a, m)),
    }[name]
    out_fast, out_reg = public(), registered()
    assert type(out_fast.grad_fn).__name__ != type(out_reg.grad_fn).__name__  # two paths indeed
    torch.testing.assert_close(out_fast, out_reg, rtol=0, atol=0)
    g = randn(out_fast.shape, torch.float32, device)
    for got, want in zip(torch.autograd.grad(out_fast, inputs, g), torch.autograd.grad(out_reg, inputs, g)):
        torch.testing.assert_close(got, want, rtol=0, atol=0)


@pytest.mark.parametrize("name", ["softmax", "layer_norm", "rms_norm", "linear", "matmul"])
def test_eager_fast_path_without_autograd_matches(device, name):
    """The extension's own entry point serves these calls (a NotImplemented would send them to
    torch.ops unnoticed) and gives torch.ops's values."""
    from kernelwright.ops._common import ext

    ops = torch.ops.kernelwright
    a, w, bias = (randn(s, torch.float32, device) for s in ((4, 7), (3, 7), (3,)))
    beta = randn((7,), torch.float32, device)
    fast, registered = {
        "softmax": (lambda: ext.softmax(a, -1), lambda: ops.softmax(a, -1)),
        "layer_norm": (lambda: ext.layer_norm(a, [7], None, beta, 1e-5),
                       lambda: ops.layer_norm(a, [7], None, beta, 1e-5)[0]),
        "rms_norm": (lambda: ext.rms_norm(a, [7], None, None), lambda: ops.rms_norm(a, [7])[0]),
        "linear": (lambda: ext.linear(a, w, bias, "relu"), lambda: ops.linear(a, w, bias, "relu")),
        "matmul": (lambda: ext.matmul(a, w.t()), lambda: ops.matmul(a, w.t())),
    }[name]
    out = fast()
    assert isinstance(out, torch.Tensor) and out.grad_fn is None
    torch.testing.assert_close(out, registered(), rtol=0, atol=0)


def test_fast_path_nodes_keep_autograd_rules(device):
    """The nodes the fast path records for the row and GEMM ops (see also the elementwise ops'
    test_graph_semantics_match_torch): saved tensors go through saved-tensor hooks, a freed
    graph cannot be walked twice, and a second derivative is an error, not a wrong number."""
    r = lambda *s: randn(s, torch.float64, device).requires_grad_()  # noqa: E731
    x, w, b = r(6, 8), r(8), r(8)
    calls = {
        "logsumexp": lambda: K.logsumexp(x, 1),
        "softmax": lambda: K.softmax(x, 1),
        "layer_norm": lambda: K.layer_norm(x, [8], w, b),
        "rms_norm": lambda: K.rms_norm(x, [8], w),
        "linear": lambda: K.linear(x, r(5, 8), r(5), "sigmoid"),
        "matmul": lambda: K.matmul(x, r(8, 3)),
    }
    for name, call in calls.items():
        packed = []
        with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
            out = call().sum()
        assert packed, name
        (g,) = torch.autograd.grad(out, x, create_graph=True, retain_graph=True)
        with pytest.raises(RuntimeError, match="not implemented"):
            torch.autograd.grad(g.sum(), x)
        out.backward()
        with pytest.raises(RuntimeError, match="second time"):
            out.backward()


# Entering forward AD makes torch script some of its own decompositions, which warns.
@pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated:DeprecationWarning")
def test_forward_mode_ad_is_a_clear_error(device):
    """Forward-mode AD has no rules in kernelwright: a dual tensor is refused on both paths
    rather than its tangent dropped, and the next call still works."""
    import torch.autograd.forward_ad as fwAD

    x = randn((4, 6), torch.float32, device)
    w = randn((3, 6), torch.float32, device)
    calls = {
        "sigmoid": (K.sigmoid, torch.ops.kernelwright.sigmoid.default),
        "mul": (lambda d: K.mul(d, x), lambda d: torch.ops.kernelwright.mul.default(d, x)),
        "logsumexp": (lambda d: K.logsumexp(d, 1), lambda d: torch.ops.kernelwright.logsumexp.default(d, [1])),
        "linear": (lambda d: K.linear(d, w), lambda d: torch.ops.kernelwright.linear.default(d, w)),
    }
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, randn((4, 6), torch.float32, device))
        for name, paths in calls.items():
            for call in paths:
                with pytest.raises(NotImplementedError, match="forward-mode AD"):
                    call(dual)
    torch.testing.assert_close(K.sigmoid(x), torch.sigmoid(x))

"""Stand-ins for ATen's matrix products: which nodes get one, and that both the call the
measurement times and the code the emitted module runs compute what ATen does. The graphs are
traced on fake CUDA tensors (stand-ins exist only there); the calls run on the CPU."""

import types

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import kernelwright.ops as K
from kernelwright.optimize import anchors, runtime

aten = torch.ops.aten


def _node(op, shapes, device="cuda", dtype=torch.float32):
    """An FX node calling ``op`` on placeholders of ``shapes``, its value traced on fake tensors;
    a shape starting with None is a tensor expanded over that dim (stride 0), as ``expand`` makes."""
    graph = torch.fx.Graph()
    args = [graph.placeholder("in%d" % i) for i in range(len(shapes))]
    node = graph.call_function(op, tuple(args))
    with FakeTensorMode():
        values = [_made(s, lambda t: torch.empty(t, device=device, dtype=dtype)) for s in shapes]
        for a, v in zip(args, values):
            a.meta["val"] = v
        node.meta["val"] = op(*values)
    return node


def _made(shape, make):
    """A tensor of ``shape``; a leading None expands one slice over a batch of 3 (stride 0)."""
    return make(shape[1:]).expand(3, *shape[1:]) if shape[0] is None else make(shape)


CASES = [(aten.mm.default, [(37, 19), (19, 23)]),
         (aten.addmm.default, [(23,), (37, 19), (19, 23)]),
         (aten.bmm.default, [(3, 37, 19), (3, 19, 23)]),
         (aten.bmm.default, [(1, 5, 7), (1, 7, 3)]),
         (aten.bmm.default, [(3, 37, 19), (None, 19, 23)])]


@pytest.mark.parametrize("op, shapes", CASES, ids=lambda c: str(c))
def test_each_stand_in_computes_atens_product_in_its_call_and_its_emitted_code(op, shapes):
    node = _node(op, shapes)
    options = anchors.alternatives(node)
    assert len(options) == 1
    g = torch.Generator().manual_seed(len(shapes))
    values = [_made(s, lambda t: torch.randn(t, generator=g)) for s in shapes]
    want = op(*values)
    names = {"in%d" % i: v for i, v in enumerate(values)}
    emitted = eval(options[0].code(lambda a: a.name), {"torch": torch, "_K": K}, names)
    for got in (options[0].call(*values), emitted):
        assert got.shape == want.shape
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
        if op is aten.bmm.default and (shapes[0][0] == 1 or shapes[1][0] is None):
            assert got._base is not None, "one product (of all the rows) viewed, not a stack of copies"


@pytest.mark.parametrize("node", [
    lambda: _node(aten.mm.default, [(4, 5), (5, 6)], device="cpu"),
    lambda: _node(aten.mm.default, [(4, 5), (5, 6)], dtype=torch.float64),
    lambda: _node(aten.bmm.default, [(0, 4, 5), (0, 5, 6)]),
    lambda: _node(aten.addmm.default, [(4, 6), (4, 5), (5, 6)]),  # a bias matrix, not a row
    lambda: _node(aten.mul.Tensor, [(4, 5), (4, 5)]),
], ids=["cpu", "float64", "empty-batch", "bias-matrix", "not-a-product"])
def test_no_stand_in_where_kernelwrights_gemm_does_not_apply(node):
    assert anchors.alternatives(node()) == []


def _linear_node(op, n=23, k=19, m=37, scaled=False, dtype=torch.float32):
    """``op`` (mm or addmm) of an input [m, k] and a weight [n, k] placeholder seen through a
    transpose (and, if ``scaled``, a multiplication after it)."""
    graph = torch.fx.Graph()
    x, w = graph.placeholder("x"), graph.placeholder("w")
    wt = graph.call_function(aten.permute.default, (w, [1, 0]))
    if scaled:
        wt = graph.call_function(aten.mul.Tensor, (wt, 2.0))
    bias = graph.placeholder("bias") if op is aten.addmm.default else None
    node = graph.call_function(op, (x, wt) if bias is None else (bias, x, wt))
    with FakeTensorMode():
        vx, vw = torch.empty(m, k, device="cuda", dtype=dtype), torch.empty(n, k, device="cuda", dtype=dtype)
        x.meta["val"], w.meta["val"] = vx, vw
        wt.meta["val"] = vw.t() * 2.0 if scaled else vw.t()
        if bias is not None:
            bias.meta["val"] = torch.empty(n, device="cuda", dtype=dtype)
        node.meta["val"] = op(*((vx, wt.meta["val"]) if bias is None else (bias.meta["val"], vx, wt.meta["val"])))
    return node


@pytest.mark.parametrize("op", [aten.mm.default, aten.addmm.default], ids=str)
def test_a_held_weight_gets_a_cached_stand_in_that_computes_atens_product(op):
    node = _linear_node(op)
    options = anchors.alternatives(node, params={"w": "lin.weight"})
    assert [o.label for o in options][1:] == ["kernelwright.ops.linear, weight converted once"]
    g = torch.Generator().manual_seed(5)
    x, w, bias = torch.randn(37, 19, generator=g), torch.randn(23, 19, generator=g), torch.randn(23, generator=g)
    args = (x, w.t()) if op is aten.mm.default else (bias, x, w.t())
    want = op(*args)
    module = types.SimpleNamespace()
    names = dict(zip([a.name for a in node.args], args), self=module)
    code = options[1].code(lambda a: a.name)
    for got in (options[1].call(*args), options[1].call(*args), eval(code, {"_K": K, "_kw": runtime}, names)):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    cache = module._kw_weight_caches[node.name]
    eval(code, {"_K": K, "_kw": runtime}, names)
    assert module._kw_weight_caches == {node.name: cache}, "one cache per call site, kept by the module"


@pytest.mark.parametrize("node, params", [
    (lambda: _linear_node(aten.mm.default), {}),  # the right operand is an input
    (lambda: _linear_node(aten.addmm.default, scaled=True), {"w": "lin.weight"}),  # computed from it
    (lambda: _linear_node(aten.mm.default, dtype=torch.float16), {"w": "lin.weight"}),  # no conversion
], ids=["input", "computed", "float16"])
def test_no_cached_stand_in_for_an_operand_that_is_not_a_held_float32_weight(node, params):
    labels = [o.label for o in anchors.alternatives(node(), params=params)]
    assert "kernelwright.ops.linear, weight converted once" not in labels

"""Stand-ins for ATen's matrix products: which nodes get one, and that both the call the
measurement times and the code the emitted module runs compute what ATen does. The graphs are
traced on fake CUDA tensors (stand-ins exist only there); the calls run on the CPU."""

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import kernelwright.ops as K
from kernelwright.optimize import anchors

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

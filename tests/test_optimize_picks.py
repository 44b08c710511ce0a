"""Picks (gathers, indexing) moved ahead of the pointwise ops they pick from: the same values, the whole pointwise
result no longer written, and no move where it would be wrong or cost more."""

import pytest
import torch
import torch.nn.functional as F

from kernelwright.optimize import capture, interpret, plan
from optimize_util import assert_matches, graph_outputs, module_of

aten = torch.ops.aten


def _captured(fn, inputs):
    model = module_of(fn)
    return model, capture.capture(model, inputs)


def _gathers(gm):
    return [n for n in gm.graph.nodes if n.op == "call_function" and n.target is aten.gather.default]


def _graph_matches(model, captured, inputs):
    got = graph_outputs(plan.plan(captured), model, inputs)
    assert_matches(got, model(*inputs))
    ref = model(*[x.double() if x.is_floating_point() else x for x in inputs])
    assert_matches(got, ref.float() if not isinstance(ref, tuple) else [r.float() for r in ref])


@pytest.mark.parametrize("shape,dim", [((37, 1003), 1), ((5, 7, 129), -1), ((300, 11), 0)])
def test_cross_entropy_picks_its_logits_from_the_input(shape, dim):
    torch.manual_seed(0)
    x = torch.randn(*shape) * 4 - 1

    def nll_of_log_softmax(x, t):
        return -F.log_softmax(x, dim=dim).gather(dim, t).mean()

    index_shape = list(shape)
    index_shape[dim] = 2
    t = torch.randint(0, shape[dim], index_shape)
    model, c = _captured(nll_of_log_softmax, [x, t])
    (g,) = _gathers(c.graph_module)
    # Picks from the input itself: the log-softmax is no longer a tensor anything reads whole.
    assert g.args[0].op == "placeholder" and g.meta.get("kw_pick_moved")
    _graph_matches(model, c, [x, t])
    p = plan.plan(c)
    assert any("gather" in d and "moved ahead" in d for d in p.decisions)
    big = [g for g in p.groups for o in g.outputs if o.meta["val"].numel() == x.numel()]
    assert not big, "a group still writes a tensor of the input's size"


def test_cross_entropy_with_ignored_targets_matches_float64():
    torch.manual_seed(1)
    x = torch.randn(64, 515) * 3
    t = torch.randint(0, 515, (64,))
    t[::7] = -100
    model, c = _captured(lambda x, t: F.cross_entropy(x, t), [x, t])
    assert _gathers(c.graph_module)[0].args[0].op == "placeholder"
    _graph_matches(model, c, [x, t])
    # The planned kernels, run through their torch renderings, agree too.
    p = plan.plan(c)
    with torch.no_grad():
        got = interpret.run(p, model, [x, t], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})
    assert_matches(got, model(x, t))


def test_an_operand_broadcast_along_another_dim_is_picked_from_its_expanded_view():
    """x [1, C] + y [N, 1] gathered along dim 1: y broadcasts along the gathered dim and is used
    as it is; x is full along it but broadcast over the rows, so it is picked from x expanded."""
    torch.manual_seed(3)
    x, y = torch.randn(1, 33), torch.randn(40, 1)
    t = torch.randint(0, 33, (40, 1))
    model, c = _captured(lambda x, y, t: torch.gather(torch.exp(x + y), 1, t), [x, y, t])
    (g,) = _gathers(c.graph_module)
    assert g.args[0].target is aten.expand.default and g.args[0].args[0].op == "placeholder"
    _graph_matches(model, c, [x, y, t])


@pytest.mark.parametrize("pick,moved", [("rows", True), ("middle", True), ("sliced", False)])
def test_advanced_indexing_picks_from_the_input(pick, moved):
    """x[i, j, k] and x[:, j] move like gathers; behind a slice (a view between the pick and the
    pointwise op) the pick stays where it is."""
    torch.manual_seed(4)
    x, temp = torch.randn(6, 50, 37) * 3, torch.rand(6, 1, 1) + 0.5
    t = torch.randint(0, 37, (6, 50))
    rows = torch.arange(6)

    def f(x, temp, t):
        logp = F.log_softmax(x / temp, dim=-1)
        if pick == "rows":
            return -logp[rows[:, None], torch.arange(50)[None, :], t].mean()
        if pick == "sliced":
            return logp[:, 3:40:2][rows, :, t[:, :1].squeeze(1)]
        return logp[:, t[0, :7]]  # an index on a middle dim, whole rows kept

    model, c = _captured(f, [x, temp, t])
    picks = [n for n in c.graph_module.graph.nodes if n.op == "call_function" and n.target is aten.index.Tensor]
    assert picks and all(bool(n.meta.get("kw_pick_moved")) == moved for n in picks)
    assert all(n.args[0].op == "placeholder" or n.args[0].target is aten.expand.default for n in picks) == moved
    _graph_matches(model, c, [x, temp, t])
    p = plan.plan(c)
    with torch.no_grad():
        got = interpret.run(p, model, [x, temp, t], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})
    assert_matches(got, model(x, temp, t))


def test_a_gather_that_picks_most_of_the_result_stays_after_it():
    x = torch.randn(16, 9)
    t = torch.randint(0, 9, (16, 9))  # a permutation-sized pick: repeating the ops costs more
    model, c = _captured(lambda x, t: torch.gather(torch.tanh(x) * 2, 1, t), [x, t])
    (g,) = _gathers(c.graph_module)
    assert g.args[0].op == "call_function" and not g.meta.get("kw_pick_moved")
    _graph_matches(model, c, [x, t])


def test_a_pointwise_result_used_elsewhere_is_kept_and_the_gather_still_moves():
    torch.manual_seed(2)
    x, s = torch.randn(24, 301), torch.randn(24, 1)
    t = torch.randint(0, 301, (24, 1))

    def f(x, s, t):
        y = torch.sigmoid(x * s)
        return y.sum(1), torch.gather(y, 1, t)

    model, c = _captured(f, [x, s, t])
    (g,) = _gathers(c.graph_module)
    assert g.args[0].op == "placeholder"
    _graph_matches(model, c, [x, s, t])


def test_take_along_dim_picks_through_the_expand_it_decomposes_to():
    torch.manual_seed(5)
    x, t = torch.randn(5, 23, 41) * 2, torch.randint(0, 41, (5, 23, 1))
    model, c = _captured(lambda x, t: -torch.take_along_dim(F.log_softmax(x, -1), t, dim=-1), [x, t])
    (g,) = _gathers(c.graph_module)
    assert g.meta.get("kw_pick_moved") and g.args[0].op == "placeholder"
    _graph_matches(model, c, [x, t])

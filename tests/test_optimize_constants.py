"""Constants made from nothing (``full``, ``arange``) computed inside the kernels that read them,
not written by ATen first and loaded: a causal mask from two aranges, positions scaled into a
pointwise chain, a filled tensor in a select."""

import pytest
import torch

from optimize_util import assert_matches, compile_with_nvrtc, module_of, planned_and_run


def _generated(fn, inputs, op):
    _, p, got = planned_and_run(fn, inputs)
    inside = [n for g in p.groups for n in g.nodes if n.target.__name__.startswith(op + ".")]
    assert inside, "%s stayed with ATen: %s" % (op, p.decisions)
    ref = module_of(fn)(*[x.double() if x.is_floating_point() else x for x in inputs])
    assert_matches(got, ref.to(got[0].dtype))
    compile_with_nvrtc(p, variants=1)
    return p


def test_causal_mask_from_two_aranges_is_computed_in_the_softmax():
    torch.manual_seed(0)
    s = torch.randn(3, 37, 37) * 4

    def masked_softmax(s):
        n = s.shape[-1]
        i = torch.arange(n)
        keep = i[:, None] >= i[None, :]
        return torch.softmax(s.masked_fill(~keep, float("-inf")), -1)

    p = _generated(masked_softmax, [s], "arange")
    assert len(p.groups) == 1, p.decisions


@pytest.mark.parametrize("start,end,step", [(0, 50, 1), (3, 40, 2), (-5.5, 7.25, 0.25), (10, -3, -1)])
def test_arange_in_a_pointwise_chain(start, end, step):
    torch.manual_seed(1)
    n = len(torch.arange(start, end, step))
    x = torch.randn(4, n) * 2 - 1
    _generated(lambda x: x * torch.arange(start, end, step, dtype=torch.float32) + 1, [x], "arange")


def test_integer_positions_select_from_a_filled_tensor():
    torch.manual_seed(2)
    x = torch.randn(6, 23)

    def f(x):
        pos = torch.arange(23)
        return torch.where(pos % 3 == 0, x, torch.full((6, 23), -2.5)).cumsum(-1) + pos

    _generated(f, [x], "arange")


def test_values_from_aranges_alone_stay_with_aten():
    """A kernel reading no tensor would have nothing to say which device the model runs on."""
    torch.manual_seed(3)
    x = torch.randn(5, 3)
    _, p, _ = planned_and_run(lambda x: torch.mm(x, torch.arange(12.0).view(3, 4) * 0.5 - 1), [x])
    assert all(p.specs[g.id].inputs for g in p.groups)
    assert any("reads no tensor" in d for d in p.decisions), p.decisions

"""Parts of one tensor (split, split_with_sizes, chunk, unbind) captured as the slices and
selects they are: the ops on a fused result's parts join the kernel that computes it (a GLU of a
pointwise result is one kernel), and every part holds the values eager's does."""

import operator

import pytest
import torch

from optimize_util import planned_and_run

aten = torch.ops.aten


def _run(fn, inputs):
    captured, p, _ = planned_and_run(fn, inputs)
    return captured, p


def _targets(c):
    return [n.target for n in c.graph_module.graph.nodes if n.op == "call_function"]


def test_a_glu_of_a_pointwise_result_is_one_kernel():
    torch.manual_seed(0)
    x, w = torch.randn(9, 22) * 2, torch.randn(22)
    c, p = _run(lambda x, w: (lambda a, b: a.sigmoid() * b)(*(x * w + 1).chunk(2, -1)), [x, w])
    assert aten.split.Tensor not in _targets(c) and operator.getitem not in _targets(c)
    assert len(p.groups) == 1, p.decisions


@pytest.mark.parametrize("how", ["split_uneven", "split_with_sizes", "unbind", "chunk_middle"])
def test_parts_hold_eagers_values(how):
    torch.manual_seed(1)
    x = torch.randn(5, 13, 6) - 0.5

    def f(x):
        h = torch.tanh(x) * 3
        if how == "split_uneven":
            a, b, c, d = h.split(4, dim=1)  # 4, 4, 4, 1
            return a.exp() + b, c.sum(1) - d.squeeze(1)
        if how == "split_with_sizes":
            a, b, c = h.split([2, 7, 4], dim=-2)
            return a.mean(1), b.relu(), c * 2
        if how == "unbind":
            parts = h.unbind(-1)
            return parts[0] * parts[5] + parts[2]
        a, b, c = h.chunk(3, dim=2)
        return a * b - c

    _run(f, [x])


def test_parts_concatenated_in_another_order_are_one_kernel():
    torch.manual_seed(2)
    x = torch.randn(4, 12)
    c, p = _run(lambda x: torch.cat((x * 2).split(5, 1)[::-1], 1) + 1, [x])
    assert aten.cat.default in _targets(c) and len(p.groups) == 1, p.decisions

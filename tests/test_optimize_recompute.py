"""A kernel's expression is built by reading each op at the coordinates its readers ask for, so
ops read at shifted coordinates step after step (a stencil iterated) multiply: a kernel holding
all the steps would compute 3^steps values an element. Past emitter.VALUE_BUDGET the join is
refused, and the steps run as kernels of their own that match eager."""

import torch
import torch.nn.functional as F

from kernelwright.optimize import emitter
from optimize_util import planned_and_run


def _diffuse(u, steps):
    for _ in range(steps):
        p = F.pad(u, (1, 1), mode="replicate")
        u = u + 0.2 * (p[..., :-2] + p[..., 2:] - 2.0 * u)
    return u


def test_an_iterated_stencil_is_split_where_recomputing_it_would_explode():
    assert 3**9 > emitter.VALUE_BUDGET  # nine steps in one kernel: 19683 values an element
    torch.manual_seed(0)
    u = torch.randn(3, 41)
    _, p, _ = planned_and_run(lambda u: _diffuse(u, 9), [u])
    assert len(p.groups) > 1


def test_a_few_steps_stay_one_kernel():
    torch.manual_seed(1)
    u = torch.randn(5, 23) * 3
    _, p, _ = planned_and_run(lambda u: _diffuse(u, 2), [u])
    assert len(p.groups) == 1, p.decisions

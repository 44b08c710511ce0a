"""Adaptive average pooling read inside the kernel that uses it: ATen's windows
[floor(o * i / m), ceil((o + 1) * i / m)), the largest one's taps unrolled and those past a
window's end masked, summed in ATen's order and divided by each dim's window size in turn."""

import pytest
import torch
import torch.nn.functional as F

from kernelwright.optimize import capture, interpret, plan
from tests.test_optimize_templates import _fused_matches_aten


def _fused(p, op="_adaptive_avg_pool"):
    return [d for d in p.decisions if op in d and "kernel fusing" in d]


@pytest.mark.parametrize("fn, shape", [
    (lambda x: F.adaptive_avg_pool2d(x.relu(), (7, 5)) * 2.0, (2, 3, 14, 10)),
    (lambda x: F.adaptive_avg_pool2d(x, (4, 3)) - 1.0, (2, 3, 13, 11)),
    (lambda x: torch.sigmoid(F.adaptive_avg_pool2d(x, (3, 7))), (2, 3, 9, 5)),
    (lambda x: F.adaptive_avg_pool3d(x, (2, 3, 4)) * 3.0, (1, 2, 5, 7, 9)),
    (lambda x: F.adaptive_avg_pool1d(x, 5) * 3.0, (2, 3, 17)),
], ids=["even_2d", "ragged_2d", "up_in_one_dim", "ragged_3d", "1d"])
def test_adaptive_average_pooling_fuses(fn, shape):
    p = _fused_matches_aten(fn, shape)  # the twin matches ATen; every variant compiles
    assert _fused(p), p.decisions


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_adaptive_average_pooling_adds_and_divides_as_aten_does(dtype):
    class M(torch.nn.Module):
        def forward(self, x):
            return F.adaptive_avg_pool2d(x, (6, 9))

    torch.manual_seed(0)
    x = (torch.randn(2, 3, 50, 37) * 3).to(dtype)
    p = plan.plan(capture.capture(M(), [x]))
    got = interpret.run(p, M(), [x], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})
    got = got[0] if isinstance(got, (list, tuple)) else got
    assert _fused(p) and torch.equal(got, M()(x))


def test_a_window_too_large_to_unroll_stays_with_aten():
    p = _fused_matches_aten(lambda x: F.adaptive_avg_pool2d(x, (2, 3)) + 1.0, (1, 2, 64, 64))
    assert not _fused(p)
    assert any(d.startswith("_adaptive_avg_pool2d") and "unrolled" in d for d in p.decisions), p.decisions

"""Upsampling read inside the kernel that uses it, the upsampled tensor never written. Nearest:
output element o of an upsampled dim reads input element min(floor(o * scale), size - 1), the
float32 scale ATen's CUDA kernel computes. Bilinear: the four elements around the source point,
blended in ATen's CUDA order (interpolate.py)."""

import pytest
import torch
import torch.nn.functional as F

from kernelwright.optimize import capture, interpret, plan
from tests.optimize_util import planned_and_run
from tests.test_optimize_templates import _fused_matches_aten


def _fused(p, op="upsample_nearest2d"):
    return [d for d in p.decisions if op in d and "kernel fusing" in d]


@pytest.mark.parametrize("fn, shape", [
    (lambda x: F.interpolate(x, scale_factor=2, mode="nearest") * 2.0 - x.mean(), (2, 3, 5, 7)),
    (lambda x: torch.sigmoid(F.interpolate(x, size=(11, 13), mode="nearest")), (2, 3, 5, 7)),
    (lambda x: F.interpolate(x, scale_factor=(1.5, 2.7), mode="nearest") - 0.5, (2, 3, 9, 4)),
    (lambda x: F.interpolate(x, size=(4, 3), mode="nearest") * 3.0, (2, 3, 9, 7)),
    (lambda x: F.interpolate(x.transpose(2, 3), scale_factor=3, mode="nearest").relu(), (1, 4, 6, 5)),
], ids=["twice", "to_a_size", "fractional_factors", "down", "transposed"])
def test_nearest_upsampling_is_read_through(fn, shape):
    p = _fused_matches_aten(fn, shape)  # the twin matches ATen; every variant compiles
    assert _fused(p), p.decisions


def test_an_fpn_merge_reads_the_coarse_map_at_the_fine_one_s_coordinates():
    class M(torch.nn.Module):
        def forward(self, fine, coarse):
            return torch.relu(fine + F.interpolate(coarse, size=fine.shape[-2:], mode="nearest"))

    torch.manual_seed(0)
    _, p, _ = planned_and_run(M().forward, [torch.randn(2, 5, 13, 17), torch.randn(2, 5, 7, 9)])
    assert len(p.groups) == 1 and _fused(p), p.decisions


def test_a_factor_that_disagrees_with_the_sizes_stays_with_aten():
    """1000 -> 2000 by 2.0004: ATen's CPU kernel halves the index, its CUDA kernel multiplies by
    1 / 2.0004 (index 1000 reads 500 on one, 499 on the other)."""
    p = _fused_matches_aten(lambda x: F.interpolate(x, scale_factor=(1.0, 2.0004), mode="nearest") + 1.0,
                            (1, 2, 3, 1000))
    assert not _fused(p)
    assert any(d.startswith("upsample_nearest2d") and "where ATen's CPU and CUDA kernels differ" in d
               for d in p.decisions), p.decisions


@pytest.mark.parametrize("align", [False, True], ids=["half_pixel", "align_corners"])
@pytest.mark.parametrize("fn, shape", [
    (lambda x, a: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=a) * 2.0 + 1.0, (2, 3, 5, 7)),
    (lambda x, a: torch.sigmoid(F.interpolate(x.relu(), size=(11, 13), mode="bilinear", align_corners=a)), (2, 3, 5, 7)),
    (lambda x, a: F.interpolate(x, scale_factor=(0.37, 1.91), mode="bilinear", align_corners=a) - 0.5, (1, 2, 50, 6)),
    (lambda x, a: F.interpolate(x, size=(1, 5), mode="bilinear", align_corners=a) * 3.0, (2, 3, 9, 7)),
], ids=["twice", "to_a_size_after_relu", "down_and_up", "to_one_row"])
def test_bilinear_upsampling_blends_four_taps_in_the_kernel(fn, shape, align):
    p = _fused_matches_aten(lambda x: fn(x, align), shape)
    assert _fused(p, "upsample_bilinear2d"), p.decisions


def test_bilinear_upsampling_to_the_same_size_copies_as_aten_does():
    """ATen copies: an infinity stays where it is instead of spreading through a zero weight."""
    class M(torch.nn.Module):
        def forward(self, x):
            return F.interpolate(x, size=x.shape[-2:], mode="bilinear") + 1.0

    x = torch.randn(2, 3, 6, 5)
    x[0, 1, 2, 3] = float("inf")
    _, p, got = planned_and_run(M().forward, [x])
    assert _fused(p, "upsample_bilinear2d") and int(torch.isinf(got[0]).sum()) == 1


def test_bilinear_upsampling_in_float64_matches_aten_to_rounding():
    class M(torch.nn.Module):
        def forward(self, x):
            return F.interpolate(x, size=(17, 9), mode="bilinear", align_corners=True)

    x = torch.randn(2, 3, 7, 4, dtype=torch.float64)
    p = plan.plan(capture.capture(M(), [x]))
    kernels = {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups}
    got = interpret.run(p, M(), [x], kernels)
    got = got[0] if isinstance(got, (list, tuple)) else got
    torch.testing.assert_close(got, M()(x), rtol=1e-13, atol=1e-13)

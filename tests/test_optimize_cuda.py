"""The optimizer on a GPU: every corpus model optimized with its kernels measured and kept
where faster, the emitted ModelNew compared with Model and with a float64 reference."""

import copy

import pytest
import torch

from kernelwright.optimize import api, capture
from tests.optimize_util import (MODELS, HALF, as_list, assert_matches, build, float64_errors, model_id,
                                 seeded_eager)

pytestmark = pytest.mark.cuda


@pytest.fixture(autouse=True)
def _needs_cuda():
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")


@pytest.mark.parametrize("path", MODELS, ids=model_id)
def test_optimized_model_matches_eager_and_float64(path):
    module, model, inputs = build(path, device="cuda")
    try:
        optimized = api.optimize(model, inputs, problem_source=open(path).read())
    except capture.CaptureError:
        pytest.skip("not one graph")
    for gid, t in optimized.timings.items():
        # A variant that does not build, launch or match its ATen twin is a generator bug,
        # even where another variant of the kernel is right.
        assert not t.failures, "%s: %s" % (optimized.plan.specs[gid].name, t.failures)
    new = optimized.bind(copy.deepcopy(model))
    want, reference = seeded_eager(model, inputs, half=False)
    torch.manual_seed(7)
    with torch.no_grad():
        got = as_list(new(*inputs))
    assert_matches(got, want, model_id(path), reference=reference)
    for g, w, r in zip(got, want, reference or []):
        if r is None or w.dtype in HALF:
            continue
        err_new, err_eager = float64_errors(g, w, r)
        assert err_new <= 16 * max(err_eager, 2.0**-24), "%s: error %.3g vs eager's %.3g" % (model_id(path), err_new, err_eager)


def test_a_kernel_given_a_tensor_on_another_device_runs_its_aten_fallback():
    """A generated kernel reads its inputs through device pointers: a CPU tensor among them (a
    CPU scalar broadcast, a caller's mistake) goes to the ATen fallback, which takes or refuses
    it as ATen does, and the device stays usable."""
    class M(torch.nn.Module):
        def forward(self, x, y):
            return torch.sigmoid(x) * y + 1.0

    x, y = torch.randn(257, 33, device="cuda"), torch.randn(257, 33, device="cuda")
    optimized = api.optimize(M(), [x, y], measure=False)  # unmeasured: every kernel is emitted
    spec = next(iter(optimized.plan.specs.values()))
    kernel = getattr(optimized._import(), spec.name)
    with pytest.raises(RuntimeError, match="device"):
        kernel(x, y.cpu())
    torch.testing.assert_close(kernel(x, y)[0], torch.sigmoid(x) * y + 1.0)

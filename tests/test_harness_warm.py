"""The device warm-up of spare workers (a CUDA context made while they wait for a job)."""

import pytest
import torch

from kernelwright.harness import candidate, fit, judge
from kernelwright.harness.plumbing import warm_device


def test_device_warm_up_is_quiet_where_there_is_nothing_to_warm():
    """The spares' warm-ups on the CPU, on no device, and on a device this host lacks: the job
    meets and reports any error itself, so the warm-up raises none."""
    for name in (None, "cpu", "auto", "cuda:%d" % max(8, torch.cuda.device_count() + 1), "not-a-device"):
        warm_device(name, torch)
        fit.warm(name if name in ("cpu", None) else None)
        judge.warm(name)
        candidate.warm(name)


@pytest.mark.cuda
def test_a_warmed_device_has_its_context():
    warm_device("cuda", torch)
    assert torch.cuda.is_initialized()

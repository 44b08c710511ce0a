"""The device warm-up of spare workers (a CUDA context made while they wait for a job)."""

import subprocess
import sys

import pytest
import torch

from kernelwright.harness import candidate, fit, judge
from kernelwright.harness.api import EvalOptions
from kernelwright.harness.plumbing import resolve_device, warm_device
from kernelwright.harness.protocol import WARM_DEVICE_ENV
from kernelwright.harness.session import Spares


def test_device_warm_up_is_quiet_where_there_is_nothing_to_warm():
    """The spares' warm-ups on the CPU, on no device, and on a device this host lacks: the job
    meets and reports any error itself, so the warm-up raises none and resolves nothing."""
    missing = "cuda:%d" % max(8, torch.cuda.device_count() + 1)
    assert warm_device(None, torch) is None and warm_device(missing, torch) is None
    assert warm_device("not-a-device", torch) is None
    for name in (None, "cpu", "auto", missing, "not-a-device"):
        judge.warm(name)
        candidate.warm(name)


def test_the_judge_warms_fake_tensors_on_the_device_its_job_resolves(monkeypatch):
    """'auto' (the evaluations' default) is resolved before fake tensors are made on it: a name
    torch.device does not take would leave them cold."""
    seen = []
    monkeypatch.setattr(fit, "warm", seen.append)
    judge.warm("auto")
    assert seen == [resolve_device("auto", torch)]


def test_spares_are_told_the_evaluations_device(tmp_path):
    for device in ("auto", "cpu"):
        spares = Spares(str(tmp_path / device), EvalOptions.make(None, device=device), ahead={}, refill=False)
        assert spares.env[WARM_DEVICE_ENV] == device
        spares.close()


@pytest.mark.cuda
def test_a_warmed_device_has_its_context():
    """In a fresh process, where nothing else has made it."""
    code = ("import torch; from kernelwright.harness.plumbing import warm_device; "
            "assert not torch.cuda.is_initialized(); "
            "assert warm_device('auto', torch) == torch.device('cuda'); "
            "assert torch.cuda.is_initialized()")
    subprocess.run([sys.executable, "-c", code], check=True)

"""The timing gate, compiled with NVRTC apart from kernelwright's ops extension, and the
harness's workers, which judge a candidate that uses no kernelwright op without that extension.
"""

import ctypes
import math
import os
import struct
import textwrap

import pytest
import torch

from kernelwright import timing, timing_gate
from kernelwright.harness import evaluate
from kernelwright.kernel import nvrtc, parse_kernel
from tests.markers import needs_nvrtc

CASES = os.path.join(os.path.dirname(__file__), "harness_cases")
FAST = dict(trials=2, compile=False, timing_budget_s=0.2, min_reps=5, warmup_ms=5.0, timeout=120)


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty kernel cache, so that the gate is compiled here and not read from disk."""
    monkeypatch.setenv("KERNELWRIGHT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(nvrtc, "_binaries", {})
    monkeypatch.setattr(timing_gate, "_loaded", {})
    return tmp_path


def _gate_binary(arch):
    sig = parse_kernel(timing_gate.SOURCE, timing_gate.KERNEL)
    return nvrtc.binary(timing_gate.SOURCE, "timing_gate.cu", sig, None, None, (), arch)


@needs_nvrtc
def test_gate_source_compiles_with_its_launch_bounds(fresh_cache):
    ptx, meta = _gate_binary("compute_90")
    text = ptx.decode(errors="replace")
    assert meta["format"] == "ptx" and timing_gate.KERNEL in meta["lowered"]
    # Registers capped so that four blocks of THREADS fill an SM: residency by warp slots alone.
    assert ".maxntid %d, 1, 1" % timing_gate.THREADS in text and ".minnctapersm 4" in text
    assert "%globaltimer" in text and "nanosleep" in text
    cubin, meta = _gate_binary("sm_90")
    assert cubin[:4] == b"\x7fELF" and meta["format"] == "cubin"
    assert len(list(fresh_cache.glob("nvrtc/*/meta.json"))) == 2


def test_params_point_at_each_argument_as_the_kernel_takes_it():
    host, arrived, opened, token, timeout_ns = 0x7F0000001000, 0x7E0000002000, 0x7E0000002008, 2 ** 31 - 1, 2 ** 63 - 1
    buffer = timing_gate.params(host, arrived, opened)
    timing_gate._TOKEN_AND_TIMEOUT.pack_into(buffer, timing_gate._TOKEN_OFFSET, token, timeout_ns)
    sig = parse_kernel(timing_gate.SOURCE, timing_gate.KERNEL)
    ctypes_of = {"int": ctypes.c_int32, "unsigned long long": ctypes.c_uint64}
    pointers = struct.unpack_from("<%dQ" % len(sig.params), buffer)
    read = [(ctypes.c_uint64 if p.pointer else ctypes_of[p.type]).from_address(a).value
            for p, a in zip(sig.params, pointers)]
    assert [p.name for p in sig.params] == ["host", "arrived", "opened", "token", "timeout_ns"]
    assert read == [host, arrived, opened, token, timeout_ns]
    assert all(ctypes.addressof(buffer) <= a < ctypes.addressof(buffer) + len(buffer.raw) for a in pointers)


def test_a_gate_on_the_cpu_is_refused():
    with pytest.raises(ValueError, match="CUDA device"):
        timing.Gate("cpu")


@pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA device is present")
def test_a_gate_without_a_cuda_device_says_so():
    with pytest.raises(timing.GateUnavailable, match="no CUDA device"):
        timing.Gate("cuda")


@pytest.mark.parametrize("timeout_ms", [0, -1.0, math.nan, math.inf, True, "20", None, 1e13])
def test_bad_timeouts_are_refused(timeout_ms):
    with pytest.raises(ValueError, match="timeout"):
        timing_gate._timeout_ns(timeout_ms)


def test_timeouts_in_nanoseconds():
    assert timing_gate._timeout_ns(20) == 20_000_000 and timing_gate._timeout_ns(0.5) == 500_000


@pytest.mark.cuda
@needs_nvrtc
def test_gate_builds_with_nvrtc_closes_opens_and_times_a_small_op(fresh_cache):
    gate = timing.Gate("cuda")
    assert list(fresh_cache.glob("nvrtc/*/meta.json")), "the gate was not compiled with NVRTC"
    with pytest.raises(ValueError, match="timeout"):
        gate.close(0)
    gate.close(1000.0)  # returns once every block is resident
    gate.open()
    torch.cuda.synchronize()
    assert not gate.opened_by_timeout()
    gate.close(5.0)  # left closed: it opens by itself
    torch.cuda.synchronize()
    assert gate.opened_by_timeout()
    x = torch.randn(1 << 10, device="cuda")
    kw = dict(min_reps=5, max_reps=5, warmup=1, warmup_ms=0, budget_s=5.0)
    gated = timing.time_fn(lambda: x.mul_(1.0), None, "cuda", gate=gate, **kw)
    assert gated.clock == "cuda_event_gated" and gated.n == 5 and gated.gate_timeouts == 0
    assert len(gated.host_samples_ms) == len(gated.wall_samples_ms) == 5


# ------------------------------------------------- the workers without the ops extension

# Installed in every worker through PYTHONPATH: any import of kernelwright's ops extension,
# ahead of time or built just in time, or of the package that loads it, fails; each process
# leaves a file behind so the test knows the block was in place.
BLOCK = textwrap.dedent('''
    import importlib.abc
    import os
    import sys

    BLOCKED = ("kernelwright._C", "kernelwright_ops", "kernelwright.ops", "kernelwright._build.loader")


    class BlockOps(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name in BLOCKED or name.startswith("kernelwright.ops."):
                raise ImportError("kernelwright's ops extension is unavailable in this test: " + name)
            return None


    sys.meta_path.insert(0, BlockOps())
    open(os.path.join(os.environ["KW_TEST_BLOCK_MARKS"], str(os.getpid())), "w").close()
''')

USES_OPS = textwrap.dedent('''
    """ELU through kernelwright's own op."""
    import torch.nn as nn

    import kernelwright.ops as K


    class ModelNew(nn.Module):
        def __init__(self, alpha):
            super().__init__()
            self.alpha = alpha

        def forward(self, x):
            return K.elu(x, self.alpha)
''')


def _evaluate_without_ops(tmp_path, candidate, device):
    site, marks = tmp_path / "site", tmp_path / "marks"
    site.mkdir()
    marks.mkdir()
    (site / "sitecustomize.py").write_text(BLOCK)
    env = {"PYTHONPATH": str(site), "KW_TEST_BLOCK_MARKS": str(marks)}
    r = evaluate(os.path.join(CASES, "problems", "elu.py"), candidate, device=device, env=env, **FAST)
    # The judge's and the candidate's workers at least.
    assert len(list(marks.iterdir())) >= 2, "the block was not installed in the workers"
    return r


def test_a_candidate_without_kernelwright_ops_is_judged_without_the_extension(tmp_path, device):
    r = _evaluate_without_ops(tmp_path, os.path.join(CASES, "candidates", "elu_correct.py"), device)
    assert r["verdict"] == "pass", r["reason"]
    if device == "cuda":
        assert "candidate_device" in r["timings"] and r["timings"]["candidate_device"]["clock"] == "cuda_event_gated"
        assert not [n for n in r["notes"] if "device time not measured" in n], r["notes"]


def test_the_block_stops_a_candidate_that_imports_kernelwright_ops(tmp_path):
    candidate = tmp_path / "uses_ops.py"
    candidate.write_text(USES_OPS)
    r = _evaluate_without_ops(tmp_path, str(candidate), "cpu")
    assert r["verdict"] == "error"
    assert "ops extension is unavailable in this test" in (r["reason"] or "") + (r.get("traceback") or "")

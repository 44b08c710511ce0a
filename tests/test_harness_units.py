"""Unit tests of the harness's pieces that need no worker process."""

import importlib.util
import json
import math
import os
import subprocess
import sys
import time

import pytest
import torch
from rich.console import Console

from kernelwright import timing
from kernelwright.harness import anticheat, candidate, compare, inputs, report, suite, verdict
from kernelwright.harness.api import EvalOptions
from kernelwright.harness.session import sanitize

CASES = os.path.join(os.path.dirname(__file__), "harness_cases")


# ----------------------------------------------------------------- compare


def test_tolerances_follow_kernelbench():
    assert compare.tolerance_for(torch.float32) == (1e-4, 1e-4)
    assert compare.tolerance_for(torch.float16) == (1e-2, 1e-2)
    assert compare.tolerance_for(torch.bfloat16) == (1e-2, 1e-2)


def test_float32_tolerance_follows_the_matmul_precision():
    """At 'high' and 'medium' float32 results may carry TF32- and bfloat16-class error, which
    KernelBench's half-precision tolerance admits; float16 and float64 do not move."""
    assert compare.tolerance_for(torch.float32, "highest") == (1e-4, 1e-4)
    assert compare.tolerance_for(torch.float32, "high") == (1e-2, 1e-2)
    assert compare.tolerance_for(torch.float32, "medium") == (1e-2, 1e-2)
    assert compare.tolerance_for(torch.float16, "highest") == (1e-2, 1e-2)
    assert compare.tolerance_for(torch.float64, "medium") == (1e-4, 1e-4)
    old = torch.get_float32_matmul_precision()
    try:
        torch.set_float32_matmul_precision("medium")
        assert compare.tolerance_for(torch.float32) == (1e-2, 1e-2)
        x = torch.randn(1000, dtype=torch.float64)
        assert compare.compare_outputs(x.float().bfloat16().float(), x.float(), x)["ok"]
    finally:
        torch.set_float32_matmul_precision(old)
    assert not compare.compare_outputs(x.float().bfloat16().float(), x.float(), x)["ok"]


def test_exact_and_rounded_candidates_pass():
    x = torch.randn(1000, dtype=torch.float64)
    ref64 = torch.exp(x)
    eager = torch.exp(x.float())
    assert compare.compare_outputs(eager.clone(), eager, ref64)["ok"]
    assert compare.compare_outputs(ref64.float(), eager, ref64)["ok"]  # more accurate than eager
    assert not compare.compare_outputs(eager * 1.001, eager, ref64)["ok"]


def test_candidate_gets_the_eager_reference_rounding_noise():
    # Ill-conditioned: a long sum of wide-magnitude terms.  Both float32 results carry
    # rounding error far above atol; a different summation order must still pass.
    g = torch.Generator().manual_seed(0)
    a = torch.randn(64, 4096, generator=g, dtype=torch.float64) * 1e3
    b = torch.randn(4096, 32, generator=g, dtype=torch.float64)
    ref64 = a @ b
    eager = a.float() @ b.float()
    other_order = (a.float().reshape(64, 64, 64).transpose(0, 1) @ b.float().reshape(64, 64, 32)).sum(0)
    assert compare.compare_outputs(other_order, eager, ref64)["ok"]
    assert not compare.compare_outputs(other_order + 1.0, eager, ref64)["ok"]


def test_nonfinite_values_must_match():
    ref = torch.tensor([1.0, float("nan"), float("inf"), -float("inf")])
    assert compare.compare_outputs(ref.clone(), ref, ref.double())["ok"]
    bad = ref.clone()
    bad[0] = float("nan")
    r = compare.compare_outputs(bad, ref, ref.double())
    assert not r["ok"] and r["mismatched"] == 1
    bad = ref.clone()
    bad[2] = 1e30
    assert not compare.compare_outputs(bad, ref, ref.double())["ok"]


def test_structure_shape_dtype_device_checked():
    e = torch.zeros(2, 3)
    assert "shape" in compare.compare_outputs(torch.zeros(3, 2), e, None)["reason"]
    assert "dtype" in compare.compare_outputs(torch.zeros(2, 3, dtype=torch.float64), e, None)["reason"]
    assert "leaves" in compare.compare_outputs((e, e), e, None)["reason"]
    assert compare.compare_outputs((e, torch.ones(1)), (e, torch.ones(1)), None)["ok"]


def test_integer_outputs_exact():
    e = torch.tensor([1, 2, 3])
    assert compare.compare_outputs(e.clone(), e, e)["ok"]
    assert not compare.compare_outputs(torch.tensor([1, 2, 4]), e, e)["ok"]


def test_bitwise_equal_and_overlap():
    a = torch.tensor([float("nan"), 1.0])
    assert compare.bitwise_equal(a, a.clone())
    assert not compare.bitwise_equal(a, torch.tensor([float("nan"), 2.0]))
    base = torch.zeros(10)
    assert compare.storages_overlap(base[2:5], base)
    assert not compare.storages_overlap(base, torch.zeros(10))


# ------------------------------------------------------------------ inputs


def test_variants_keep_shapes_dtypes_and_integers():
    x = [torch.rand(8, 16), torch.randint(0, 10, (8,)), torch.rand(4, dtype=torch.float16), 3]
    for kind in inputs.VARIANTS:
        v = inputs.make_variant(x, kind, seed=1)
        assert [tuple(t.shape) for t in v[:3]] == [tuple(t.shape) for t in x[:3]]
        assert [t.dtype for t in v[:3]] == [t.dtype for t in x[:3]]
        assert torch.equal(v[1], x[1]) and v[3] == 3
    signed = inputs.make_variant(x, "signed", seed=1)[0]
    assert bool((signed < 0).any()) and torch.allclose(signed.abs(), x[0])
    wide = inputs.make_variant(x, "wide", seed=1)[0].abs()
    assert float(wide.max()) > 10 and float(wide.min()) < 0.1
    same = inputs.make_variant(x, "wide_same_sign", seed=1)[0]
    assert bool((same > 0).all())
    # One constant added, large beside the spread, keeping a one-signed draw one-signed.
    shifted = inputs.make_variant(x, "shifted", seed=1)[0]
    offset = shifted - x[0]
    rms = float(x[0].square().mean().sqrt())
    assert float(offset.max() - offset.min()) < 1e-3 * float(offset.abs().max())
    assert 10 * rms <= float(offset.min()) <= 320 * rms
    centred = torch.randn(1000)
    offsets = {float((inputs.make_variant([centred], "shifted", seed=s)[0] - centred).mean()) > 0
               for s in range(16)}
    assert offsets == {True, False}
    # Large float16 values: the constant stays within a 64th of float16's range.
    big = torch.randn(1000, dtype=torch.float16) * 300
    moved = inputs.make_variant([big], "shifted", seed=2)[0].float() - big.float()
    assert bool(torch.isfinite(moved).all()) and float(moved.abs().max()) <= 65504 / 64 + 1
    # One factor for the whole tensor, between 1e-3 and 1e-1.
    small = inputs.make_variant(x, "small", seed=1)[0]
    ratio = small / x[0]
    assert float(ratio.max() - ratio.min()) < 1e-5 * float(ratio.max())
    assert all(1e-3 <= float(inputs.make_variant(x, "small", seed=s)[0].div(x[0]).mean()) <= 1e-1
               for s in range(16))
    from kernelwright.harness.session import VARIANT_SEEDS
    assert len(inputs.VARIANTS) <= VARIANT_SEEDS


def test_draw_inputs_is_seeded():
    get = lambda: [torch.randn(5)]  # noqa: E731
    assert torch.equal(inputs.draw_inputs(get, 7)[0], inputs.draw_inputs(get, 7)[0])
    assert not torch.equal(inputs.draw_inputs(get, 7)[0], inputs.draw_inputs(get, 8)[0])


@pytest.mark.cuda
def test_draws_land_on_the_gpu_unless_a_device_is_named():
    get = lambda: [torch.randn(1000), torch.randint(0, 9, (3,), device="cpu")]  # noqa: E731
    x, idx = inputs.draw_inputs(get, 7, "cuda")
    assert x.is_cuda and idx.device.type == "cpu"
    assert torch.equal(x, inputs.draw_inputs(get, 7, "cuda")[0])
    assert float(x.std()) == pytest.approx(1.0, abs=0.15) and bool((x < 0).any())
    assert torch.get_default_device().type == "cpu"  # the default is restored


class _CpuGenerated(torch.nn.Module):
    """A constructor that draws from a CPU generator: it cannot run with the GPU as default."""

    def __init__(self, n):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(n, generator=torch.Generator().manual_seed(1)))
        self.lin = torch.nn.Linear(n, 3)


def test_models_are_built_seeded_and_moved():
    a, b, c = (inputs.construct(torch.nn.Linear, [7, 5], seed, "cpu") for seed in (3, 3, 4))
    assert torch.equal(a.weight, b.weight) and not torch.equal(a.weight, c.weight)


@pytest.mark.cuda
def test_models_are_built_on_the_gpu_unless_their_constructor_needs_the_cpu():
    lin = inputs.construct(torch.nn.Linear, [300, 200], 3, "cuda")
    assert lin.weight.is_cuda and torch.equal(lin.weight, inputs.construct(torch.nn.Linear, [300, 200], 3, "cuda").weight)
    bound = 300 ** -0.5  # nn.Linear's uniform initialisation
    assert bound * 0.99 < float(lin.weight.abs().max()) <= bound and bool((lin.weight < 0).any())
    m = inputs.construct(_CpuGenerated, [6], 3, "cuda")  # built on the CPU, then moved
    assert m.w.is_cuda and m.lin.weight.is_cuda
    assert torch.equal(m.w.cpu(), torch.randn(6, generator=torch.Generator().manual_seed(1)))
    assert torch.equal(m.lin.weight.cpu(), inputs.construct(_CpuGenerated, [6], 3, "cpu").lin.weight)
    assert torch.get_default_device().type == "cpu"


def test_sampled_leaves_match_the_reference_at_the_same_positions():
    big, small = torch.randn(40, 50), torch.randn(3)
    out, samples = compare.sample_leaves((big, {"s": small, "n": 2}), 100, seed=5)
    assert list(samples) == ["out[0]"] and samples["out[0]"][0] == (40, 50)
    assert out[0].shape == (100,) and out[1]["s"] is small and out[1]["n"] == 2
    ref = (big, {"s": small, "n": 2})
    assert compare.samples_mismatch(ref, samples) is None
    taken = compare.take_samples(ref, samples)
    assert torch.equal(taken[0], out[0])
    ref64 = compare.take_samples((big.double(), {"s": small.double(), "n": 2}), samples)
    assert compare.compare_outputs(out, taken, ref64)["ok"]
    stale = compare.sample_leaves((torch.randn(40, 50), {"s": small, "n": 2}), 100, seed=5)[0]
    assert not compare.compare_outputs(stale, taken, None)["ok"]
    # Positions depend on the seed; a reference of another shape is a reason, not a gather.
    assert not torch.equal(compare.sample_leaves(big, 100, seed=6)[1]["out"][1], samples["out[0]"][1])
    assert "shape (40, 50)" in compare.samples_mismatch((torch.randn(50, 40), {}), samples)


def test_flatten_and_map_leaves_agree_on_paths():
    out = {"b": [1, torch.ones(2)], "a": (3,)}
    assert [p for p, _ in compare.flatten(out)] == ["out['a'][0]", "out['b'][0]", "out['b'][1]"]
    doubled = compare.map_leaves(out, lambda p, x: x * 2)
    assert doubled["a"] == (6,) and torch.equal(doubled["b"][1], torch.full((2,), 2.0))


# ------------------------------------------------------------------ timing


def test_time_fn_cpu_statistics_and_rotation():
    seen = []
    calls = []

    def make_args(i):
        seen.append(i)
        return (i,)

    r = timing.time_fn(lambda i: calls.append(i), make_args, "cpu", warmup=2, warmup_ms=0,
                       min_reps=7, max_reps=20, budget_s=5.0, target_rse=1e-9,
                       after_call=lambda i, args, out: None)
    assert r.clock == "host" and 7 <= r.n <= 20
    assert r.median_ms >= 0 and r.stderr_ms >= 0 and r.mean_ms > 0
    assert seen[:2] == [-1, -2] and seen[2:] == list(range(r.n))
    assert calls == seen
    d = r.to_dict()
    assert {"median_ms", "mean_ms", "std_ms", "stderr_ms", "n", "rse"} <= set(d)


def test_time_fn_stops_on_budget():
    # Every call sleeps at least 10 ms, so a 0.2 s budget ends the run well before 40 calls
    # however fast the machine is.
    r = timing.time_fn(lambda: time.sleep(0.01), None, "cpu", warmup=1, warmup_ms=0, min_reps=3,
                       max_reps=10000, budget_s=0.2, target_rse=0.0, flush_cache=False)
    assert r.stopped_by == "budget" and r.n < 40


def test_time_fn_least_reps_give_way_to_the_budget():
    # Calls of 20 ms against a 10 ms budget: min_reps holds without least_reps, and gives way
    # to the budget at least_reps with it, however fast the machine is.
    def run(**kw):
        return timing.time_fn(lambda: time.sleep(0.02), None, "cpu", warmup=1, warmup_ms=0, min_reps=8,
                              max_reps=100, budget_s=0.01, target_rse=0.0, flush_cache=False, **kw)

    assert run().n == 8
    least = run(least_reps=3)
    assert least.n == 3 and least.stopped_by == "budget"


def test_summarize():
    med, mean, std, se = timing.summarize([1.0, 2.0, 3.0, 4.0])
    assert med == 2.5 and mean == 2.5 and math.isclose(se, std / 2)


def test_merge_rounds():
    # target_rse=0: a run of near-identical samples must not stop "by precision" first.
    a = timing.time_fn(lambda: None, None, "cpu", warmup=1, warmup_ms=0, min_reps=4, max_reps=4, flush_cache=False,
                       target_rse=0)
    b = timing.time_fn(lambda: None, None, "cpu", warmup=1, warmup_ms=0, min_reps=6, max_reps=6, flush_cache=False,
                       target_rse=0)
    m = timing.merge([a, b])
    assert m.n == 10 and m.samples_ms == a.samples_ms + b.samples_ms and m.stopped_by == "max_reps+max_reps"
    timing.spin_up("cpu")  # a no-op off the GPU


def test_flush_buffer_twice_llc_within_its_cap(monkeypatch):
    for llc, expected in ((6 << 20, 12 << 20), (480 << 20, timing.CPU_FLUSH_MAX_BYTES), (0, 64 << 20)):
        monkeypatch.setattr(timing, "_cpu_llc_bytes", lambda: llc)
        assert timing.flush_buffer_bytes("cpu") == expected


@pytest.mark.cuda
def test_flush_buffer_twice_l2():
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    assert timing.flush_buffer_bytes("cuda") == 2 * l2


@pytest.mark.cuda
def test_time_fn_cuda_events_and_wall():
    x = torch.randn(1 << 22, device="cuda")
    r = timing.time_fn(lambda: x.mul_(1.0), None, "cuda", min_reps=10, budget_s=1.0)
    assert r.clock == "cuda_event" and r.wall_median_ms >= r.median_ms * 0.9


@pytest.mark.cuda
def test_time_fn_host_ahead_hides_host_work_behind_queued_gpu_work():
    # make_args queues ~5 ms of GPU work; the call spends 2 ms on the host, then launches a tiny
    # kernel. From an idle GPU the host's 2 ms are timed; with the host ahead they hide.
    x = torch.randn(1 << 10, device="cuda")
    cycles = int(torch.cuda.get_device_properties(0).clock_rate * 5)  # clock_rate is in kHz

    def busy_gpu(i):
        torch.cuda._sleep(cycles)
        return ()

    def call():
        time.sleep(0.002)
        return x.mul_(1.0)

    kw = dict(min_reps=5, max_reps=5, warmup=1, warmup_ms=0, budget_s=5.0)
    idle = timing.time_fn(call, busy_gpu, "cuda", **kw)
    ahead = timing.time_fn(call, busy_gpu, "cuda", host_ahead=True, **kw)
    # time.sleep(0.002) lasts at least 2 ms however loaded the host: the idle figure holds it,
    # and with the host ahead the queued 5 ms hide it, leaving the tiny kernel.
    assert idle.median_ms > 1.9 and idle.wall_median_ms is not None
    assert ahead.wall_median_ms is None and ahead.clock == "cuda_event_host_ahead"
    assert ahead.median_ms < idle.median_ms / 2


@pytest.mark.cuda
def test_gated_time_is_the_device_work_alone_and_keeps_the_host_time():
    # Nothing queued but the cache flush: 2 ms of host work before a tiny kernel is timed from
    # an idle GPU; behind the gate the events see the kernel alone and the host time is kept.
    x = torch.randn(1 << 10, device="cuda")

    def call():
        time.sleep(0.002)
        return x.mul_(1.0)

    kw = dict(min_reps=5, max_reps=5, warmup=1, warmup_ms=0, budget_s=5.0)
    idle = timing.time_fn(call, None, "cuda", **kw)
    gated = timing.time_fn(call, None, "cuda", gate=timing.Gate("cuda"), **kw)
    # time.sleep(0.002) lasts at least 2 ms however loaded the host.
    assert idle.median_ms > 1.9
    assert gated.clock == "cuda_event_gated" and gated.gate_timeouts == 0 and gated.n == 5
    assert gated.host_median_ms > 1.9 and gated.median_ms < gated.host_median_ms / 2
    assert gated.pipelined_median_ms == pytest.approx(gated.host_median_ms, rel=0.1)


def test_gated_loop_bookkeeping_without_a_gpu(monkeypatch):
    # The gated loop's own arithmetic with the CUDA calls replaced: a device time of 0.5 ms per
    # call, 2 ms of host work, a gate that opened by its timeout on every other call; warm-up
    # calls count in none of it.
    class FakeGate:
        def __init__(self):
            self.closed = self.opened = 0

        def close(self, timeout_ms):
            self.closed += 1

        def open(self):
            self.opened += 1

        def opened_by_timeout(self):
            return self.opened % 2 == 0

    monkeypatch.setattr(timing, "_Event", lambda enable_timing: None)
    monkeypatch.setattr(timing, "_event_record", lambda event: None)
    monkeypatch.setattr(timing, "_event_elapsed", lambda start, end: 0.5)
    monkeypatch.setattr(timing, "_cuda_synchronize", lambda device: None)
    gate = FakeGate()
    r = timing.time_fn(lambda: time.sleep(0.002), None, "cuda:0", gate=gate, flush_cache=False, warmup=2,
                       warmup_ms=0, min_reps=6, max_reps=6)
    assert gate.closed == gate.opened == 8 and r.clock == "cuda_event_gated" and r.n == 6
    assert r.median_ms == 0.5 and r.gate_timeouts == 3
    # time.sleep(0.002) lasts at least 2 ms, and longer on a loaded host: no upper bound.
    assert r.host_median_ms > 1.9 and r.pipelined_median_ms == r.host_median_ms
    assert len(r.wall_samples_ms) == len(r.host_samples_ms) == 6


def _side_stream_work(ms):
    side = torch.cuda.Stream()
    cycles = int(torch.cuda.get_device_properties(0).clock_rate * ms)  # clock_rate is in kHz

    def call():
        with torch.cuda.stream(side):  # never joined to the timed stream
            torch.cuda._sleep(cycles)

    return call


@pytest.mark.cuda
def test_gate_holds_side_stream_work_until_it_opens():
    # 2 ms of work on another stream: the gate holds it, so it runs after the opening, where
    # the wall clock to the device-wide sync sees it and the events do not.
    kw = dict(min_reps=5, max_reps=5, warmup=1, warmup_ms=0, budget_s=5.0)
    gated = timing.time_fn(_side_stream_work(2.0), None, "cuda", gate=timing.Gate("cuda"), **kw)
    assert gated.wall_median_ms > 1.8 and gated.gate_timeouts == 0
    assert gated.median_ms < gated.wall_median_ms / 2


@pytest.mark.cuda
def test_gate_opens_by_itself_for_a_call_that_waits_on_the_device():
    x = torch.randn(1 << 10, device="cuda")
    kw = dict(min_reps=3, max_reps=3, warmup=1, warmup_ms=0, budget_s=5.0)
    gate = timing.Gate("cuda")
    gated = timing.time_fn(lambda: x.sum().item(), None, "cuda", gate=gate, gate_timeout_ms=30.0, **kw)
    # Each call waited for the gate's 30 ms timeout to open it.
    assert gated.gate_timeouts == 3 and gated.host_median_ms >= 29.0
    # The next gated call is served as usual.
    ok = timing.time_fn(lambda: x.mul_(1.0), None, "cuda", gate=gate, **kw)
    assert ok.gate_timeouts == 0 and ok.n == 3


# --------------------------------------------------------------- anticheat


def test_guard_sees_patched_functions_and_settings(monkeypatch):
    g = anticheat.Guard()
    assert g.changes() == ([], [])
    monkeypatch.setattr(torch, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(torch.nn.functional, "relu", lambda x: x)
    old = torch.get_num_threads()
    try:
        torch.set_num_threads(max(1, old - 1) if old > 1 else 2)
        replaced, changed = g.changes()
    finally:
        torch.set_num_threads(old)
    assert "torch.allclose" in replaced
    assert "torch.nn.functional.relu" in replaced
    assert any(c.startswith("num_threads") for c in changed)


def test_scrub_and_alias_and_mutation_helpers():
    x = torch.ones(4)
    anticheat.scrub([x, torch.ones(2, dtype=torch.int32)])
    assert bool(torch.isnan(x).all())
    a = torch.zeros(3)
    assert anticheat.aliased_outputs([("out", a[1:])], [a]) == ["out aliases input 0"]
    assert anticheat.mutated_inputs([torch.ones(2)], [torch.zeros(2)]) == [0]


def test_kernel_classification():
    from kernelwright.harness.kernels import classify

    assert classify("void at::native::vectorized_elementwise_kernel<4>(...)") == "library"
    assert classify("sm90_xmma_gemm_f32f32_tf32f32") == "library"
    assert classify("nvjet_tst_128x64") == "library"
    assert classify("triton_poi_fused_add_relu_0") == "torch.compile"
    assert classify("elu_kernel(float const*, float*, int, float)") == "custom"
    assert classify("my_fused_kernel", reference_names={"my_fused_kernel"}) == "library"


# ------------------------------------------------------------ suite/report


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def test_discover_both_layouts(tmp_path):
    d = str(tmp_path)
    _write(os.path.join(d, "relu", "problem.py"), "")
    _write(os.path.join(d, "relu", "candidate_a.py"), "")
    _write(os.path.join(d, "relu", "candidates", "b.py"), "")
    _write(os.path.join(d, "problems", "1_add.py"), "")
    _write(os.path.join(d, "problems", "11_add.py"), "")
    _write(os.path.join(d, "candidates", "1_add_s0.py"), "")
    _write(os.path.join(d, "candidates", "11_add_s0.py"), "")
    _write(os.path.join(d, "candidates", "11_add", "x.py"), "")
    pairs = {pid: (os.path.basename(p), os.path.basename(c)) for pid, p, c in suite.discover(d)}
    assert pairs == {
        "relu/candidate_a": ("problem.py", "candidate_a.py"),
        "relu/b": ("problem.py", "b.py"),
        "1_add/1_add_s0": ("1_add.py", "1_add_s0.py"),
        "11_add/11_add_s0": ("11_add.py", "11_add_s0.py"),
        "11_add/x": ("11_add.py", "x.py"),
    }


def test_load_results_cuts_torn_line(tmp_path):
    p = tmp_path / "results.jsonl"
    p.write_text(json.dumps({"id": "a", "verdict": "pass"}) + "\n" + '{"id": "b", "verd')
    recs = suite.load_results(str(p))
    assert [r["id"] for r in recs] == ["a"]
    assert p.read_text().endswith("\n") and '"b"' not in p.read_text()


def test_summary_fast_p_and_geomean(tmp_path):
    results = [
        {"id": "a", "verdict": "pass", "speedup_vs_eager": 4.0, "speedup_vs_eager_idle": 3.0,
         "speedup_vs_eager_device": 4.5, "cost_basis": {"eager": "pipelined", "candidate": "idle"}, "flags": []},
        {"id": "b", "verdict": "pass", "speedup_vs_eager": 1.0, "flags": []},
        {"id": "c", "verdict": "pass", "speedup_vs_eager": 0.5, "flags": []},
        {"id": "d", "verdict": "fail", "speedup_vs_eager": 9.0, "flags": ["stale_output"]},
    ]
    s = report.summarize(results)
    assert s["fast_0"] == 0.75 and s["fast_1"] == 0.25 and s["fast_2"] == 0.25
    assert math.isclose(s["geomean_speedup_vs_eager"], (4.0 * 1.0 * 0.5) ** (1 / 3))
    paths = report.write_all(results, s, str(tmp_path))
    assert open(paths["plot"], "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    md = open(paths["markdown"]).read()
    assert "fast_1" in md and "stale_output" in md
    assert "| vs eager | vs eager, idle GPU | vs eager, device time |" in md and "| 4.000x | 3.000x | 4.500x |" in md
    console = Console(record=True, width=200)
    report.print_result(dict(results[0], reason="ok", flag_details={}), console)
    text = console.export_text()
    assert "4.000x vs eager (3.000x from an idle GPU, 4.500x in device time)" in text
    assert "per-call cost: candidate idle, eager pipelined" in text


def _rendered(width, show, *args):
    console = Console(record=True, width=width)
    show(*args, console)
    return console.export_text()


def _suite_results(device):
    """Three results of a run: a long task name, a failure whose reason holds square brackets,
    flags, and the fields a worker reports."""
    env = dict(device=device, device_name="NVIDIA H100" if device == "cuda:0" else "x86_64",
               torch_version="2.13.0", cuda_version="13.0" if device == "cuda:0" else None,
               python_version="3.11.7")
    base = dict(env, verdict="pass", reason="correct on 10 input sets", flags=[], speedup_vs_eager=1.5,
                speedup_vs_compile=0.9, speedup_vs_eager_device=1.4, speedup_vs_eager_idle=1.2, error_ratio=0.5,
                bound="memory-bound (0 FLOP/byte, ridge 12)", design="One pass over the rows, in registers.")
    return [
        dict(base, id="linear_sigmoid_linear_logsumexp/candidate_kernelwright"),
        dict(base, id="elu/candidate_kernelwright", flags=["host_bound", "no_custom_kernels"]),
        dict(base, id="softmax/candidate_kernelwright", verdict="crash", speedup_vs_eager=None,
             reason="reference trials: out of memory: RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0."),
    ]


@pytest.mark.parametrize("device", ["cpu", "cuda:0"])
def test_terminal_table_fits_80_columns_and_widens(device):
    results = _suite_results(device)
    narrow = _rendered(80, report.print_table, results)
    lines = narrow.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    # The common candidate file name goes to the title; names and flags are whole, a
    # candidate's flags on lines of their own where they do not fit on one.
    assert "every candidate is candidate_kernelwright" in lines[0]
    for task, verdict in (("linear_sigmoid_linear_logsumexp", "pass"), ("elu", "pass"), ("softmax", "crash")):
        assert any(line.split()[:2] == [task, verdict] for line in lines if line.strip()), (task, narrow)
    assert "host_bound" in narrow.split() or "host_bound," in narrow.split()
    assert "no_custom_kernels" in narrow.split()
    assert "[enforce fail at alloc_cpu.cpp:127]" in " ".join(narrow.split())
    wide = _rendered(120, report.print_table, results)
    header = " ".join(wide.splitlines()[1:3])
    assert "ratio" in header and ("device" in header) == (device == "cuda:0")
    assert "ratio" not in " ".join(lines[1:3])
    # CPU figures come with their caveat, and without the design notes, which are about CUDA.
    assert ("plain loops" in narrow) == (device == "cpu")
    assert ("One pass over the rows" in narrow) == (device == "cuda:0")


def test_single_result_view_shows_text_as_it_is():
    r = dict(_suite_results("cpu")[2], candidate="/x/cand.py", log_tail="[red]not markup[/red]")
    text = _rendered(100, report.print_result, r)
    assert "[enforce fail at alloc_cpu.cpp:127]" in " ".join(text.split())
    assert "[red]not markup[/red]" in text
    assert "x86_64" in text and "no CUDA" in text
    early = {"verdict": "error", "reason": "problem file not found: /x/p.py", "candidate": "/x/c.py",
             "device": "auto", "device_name": None, "torch_version": None}
    text = _rendered(100, report.print_result, early)
    assert "None" not in text and "environment" not in text


def test_summary_says_where_it_ran(tmp_path):
    results = _suite_results("cpu")
    s = report.summarize(results)
    s["environment"] = report.environment(results, "small")
    md = report.markdown(results, s, s["environment"])
    assert "Measured on: cpu (x86_64); torch 2.13.0; no CUDA; Python 3.11.7; problem sizes: " \
           "KERNELWRIGHT_PROBLEM_SIZE=small; 20" in md
    assert "plain loops" in md and results[2]["reason"] in md
    gpu = _suite_results("cuda:0")
    line = report.environment(gpu)
    assert "cuda:0 (NVIDIA H100)" in line and "CUDA 13.0" in line and "KERNELWRIGHT_PROBLEM_SIZE unset" in line
    assert "plain loops" not in report.markdown(gpu, report.summarize(gpu), line)
    assert report.environment([{"verdict": "error"}]).startswith("no worker reported its environment")


def test_sanitize_and_options():
    assert sanitize({"a": float("inf"), "b": [float("nan"), 1.0]}) == {"a": None, "b": [None, 1.0]}
    o = EvalOptions.make(None, trials=2)
    assert o.trials == 2 and EvalOptions.make(o, seed=3).trials == 2
    with pytest.raises(TypeError):
        EvalOptions.make(None, trails=2)


def test_cli_registration_is_cheap():
    # Registering the subcommand must not import torch (it runs for every command).
    code = ("import argparse, sys; from kernelwright.harness import cli; p = argparse.ArgumentParser();"
            "cli.register(p.add_subparsers()); a = p.parse_args(['eval', 'p.py', 'c.py', '--no-compile']);"
            "assert a.func is cli.run and not a.suite; print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_parent_side_imports_without_torch():
    # The parent process never needs torch (workers load it); nor does the worker's entry
    # point, which must be able to report that torch failed to import.
    modules = ["kernelwright.harness"] + ["kernelwright.harness." + m for m in (
        "api", "process", "suite", "cli", "protocol", "worker", "plumbing", "session", "verdict", "flags")]
    code = ("import importlib, sys; sys.modules['torch'] = None\n"
            "for m in %r: importlib.import_module(m)\n"
            "print('ok')" % modules)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# ------------------------------------------------------------ memory, exchange


def test_chunked_comparison_matches_whole_tensor():
    g = torch.Generator().manual_seed(0)
    r = torch.randn(300, 257, generator=g, dtype=torch.float64) * 10
    e = r.float()
    c = (r * (1 + 1e-6 * torch.randn(r.shape, generator=g, dtype=torch.float64))).float()
    c[3, 5] = float("nan")
    c[200, 9] = 5e6
    whole = compare.compare_tensor(c, e, r, 1e-4, 1e-4, chunk_elements=c.numel())
    for chunk in (1000, 4097):
        part = compare.compare_tensor(c, e, r, 1e-4, 1e-4, chunk_elements=chunk)
        assert part["mismatched"] == whole["mismatched"] == 2
        assert part["worst"]["index"] == whole["worst"]["index"] == [3, 5]
        assert math.isclose(part["eager"]["rel_l2"], whole["eager"]["rel_l2"], rel_tol=1e-9)


def test_chunked_variants_are_seeded():
    x = [torch.randn(100, 37)]
    for kind in inputs.VARIANTS:
        a = inputs.make_variant(x, kind, 3, chunk_elements=1000)[0]
        assert torch.equal(a, inputs.make_variant(x, kind, 3, chunk_elements=1000)[0])
        assert a.dtype == x[0].dtype and a.shape == x[0].shape


def test_exchange_picks_a_directory_with_room_or_says_why(tmp_path, monkeypatch):
    from kernelwright.harness import exchange

    full, roomy = tmp_path / "full", tmp_path / "roomy"
    full.mkdir()
    roomy.mkdir()
    monkeypatch.setattr(exchange, "free_bytes", lambda d: 0 if d == str(full) else 1 << 40)
    path = exchange.save([torch.zeros(10)], "a.pt", [str(full), str(roomy)])
    assert path == str(roomy / "a.pt") and torch.equal(exchange.load(path)[0], torch.zeros(10))
    with pytest.raises(exchange.ExchangeSpaceError, match="no room"):
        exchange.save([torch.zeros(10)], "b.pt", [str(full)])
    assert not (full / "b.pt").exists()


def test_poisoning_is_a_no_op_on_the_cpu():
    assert anticheat.poison_free_memory("cpu") == 0
    assert anticheat.poison_free_memory("cpu", keep=True) == []


def test_launch_latency_drift_is_noted_only_beyond_the_limit():
    from kernelwright.harness.verdict import launch_drift

    def base(ms):
        return {"median_ms": ms}

    assert launch_drift(base(0.010), base(0.012)) is None  # 20%: within the limit
    note = launch_drift(base(0.010), base(0.014))
    assert note and "10.0 to 14.0 us" in note
    assert launch_drift(base(0.014), base(0.010))  # either direction
    assert launch_drift(None, base(0.01)) is None and launch_drift(base(0.0), base(0.01)) is None


# --------------------------------------------------------------- gated timing, verdict side


def _timed(median, wall=None, host=None, timeouts=0):
    samples = [median] * 5
    hosts = [host] * 5 if host is not None else []
    return timing._result(samples, [wall] * 5 if wall is not None else [], hosts, "cuda_event_gated",
                          "max_reps", timeouts)


def _escape_flags(results, confirm=None, notes=None):
    c = object.__new__(candidate._Candidate)
    c.job, c.flags, c.notes = {"escape_abs_ms": 0.02, "escape_rel": 0.15}, {}, [] if notes is None else notes
    c.escape_check(results, confirm)
    return c.flags


_BASES = dict(baseline=_timed(0.010, wall=0.030), baseline_gated=_timed(0.003, wall=0.012),
              eager=_timed(0.50, wall=0.52), eager_device=_timed(0.45, wall=0.46, host=0.04))


def test_escape_check_on_the_gated_rounds():
    honest = dict(_BASES, candidate=_timed(0.50, wall=0.52), candidate_device=_timed(0.45, wall=0.46, host=0.04))
    assert _escape_flags(honest) == {}
    # Work that outlasts the timed stream after the gate opens.
    late = dict(honest, candidate_device=_timed(0.01, wall=0.47, host=0.04))
    assert "gated rounds: device-synchronised wall" in _escape_flags(late)["escaped_timed_stream"]
    # Work done while the gate was closed (on a copy engine, say): the idle GPU saw 0.5 ms that
    # neither the gated device time nor the host time accounts for.
    hidden = dict(honest, candidate_device=_timed(0.01, wall=0.02, host=0.04))
    assert "0.5000 ms from an idle GPU" in _escape_flags(hidden)["escaped_timed_stream"]
    # Still caught where the reference's gated rounds timed out (it waits on the device).
    synced_eager = dict(hidden, eager_device=_timed(0.45, wall=0.46, host=5.0, timeouts=5))
    assert "0.5000 ms from an idle GPU" in _escape_flags(synced_eager)["escaped_timed_stream"]
    # A host-bound call: the idle time is its host time, accounted for.
    host_bound = dict(_BASES, candidate=_timed(0.30, wall=0.31), candidate_device=_timed(0.02, wall=0.03, host=0.28))
    assert _escape_flags(host_bound) == {}


def test_escape_check_allows_the_gap_the_eager_reference_shows():
    # A host whose wall clock lags the events by 55 us for a small call, where the one-element
    # add showed 20 us: a candidate that makes the same call as the reference (seen on an H100)
    # must not be flagged; one whose gap exceeds the reference's by its side-stream work must.
    slow_wall = dict(_BASES, eager=_timed(0.064, wall=0.119), eager_device=_timed(0.010, wall=0.020, host=0.05))
    same = dict(slow_wall, candidate=_timed(0.064, wall=0.119), candidate_device=_timed(0.010, wall=0.020, host=0.05))
    assert _escape_flags(same) == {}
    side = dict(same, candidate=_timed(0.064, wall=0.319))
    assert "median gap 0.2550 ms; 0.0550 ms where nothing escapes" in _escape_flags(side)["escaped_timed_stream"]
    # The gap that drifted during the rounds counts too: the add timed after them.
    drifted = dict(side, baseline_end=_timed(0.010, wall=0.290))
    assert _escape_flags(drifted) == {}


def test_escape_check_flags_only_a_gap_the_side_by_side_rounds_confirm():
    # Gated rounds whose host stalled (a suite's builds beside them; seen on an H100): a 27 us
    # larger gap than the add's and the reference's, which rounds timing the three side by side
    # do not show. Work outside the timed stream shows in those rounds too.
    stalled = dict(_BASES, candidate=_timed(0.066, wall=0.085), candidate_device=_timed(0.052, wall=0.091, host=0.14))
    asked, notes = [], []
    assert _escape_flags(stalled, lambda gated: asked.append(gated) or (0.001, [0.001] * 7), notes) == {}
    assert asked == [True] and "not flagged escaped_timed_stream: gated rounds" in notes[0]
    confirmed = _escape_flags(stalled, lambda gated: (0.2, [0.2] * 7))
    assert confirmed["escaped_timed_stream"].startswith("gated rounds: ")
    assert "side by side with the add and the reference" in confirmed["escaped_timed_stream"]
    # The idle rounds' gap is confirmed without the gate, and a confirmed one ends the check.
    late = dict(_BASES, candidate=_timed(0.064, wall=0.319), candidate_device=_timed(0.45, wall=0.46, host=0.04))
    asked = []
    assert "escaped_timed_stream" in _escape_flags(late, lambda gated: asked.append(gated) or (0.25, [0.25] * 7))
    assert asked == [False]


def test_escape_gap_is_taken_per_call():
    # Two of five calls stall inside the call (both clocks lengthen), one after it: every call
    # but that one has a gap of 0.02 ms, but the two medians fall on different calls.
    events = [0.05, 0.05, 0.05, 0.25, 0.25]
    walls = [0.07, 0.07, 0.35, 0.27, 0.27]
    r = timing._result(events, walls, [], "cuda_event", "max_reps", 0)
    assert r.wall_median_ms - r.median_ms == pytest.approx(0.22)
    assert r.gap_median_ms == pytest.approx(0.02)


def test_headline_cost_is_pipelined_where_measured_else_idle():
    t = {"eager": _timed(0.060).to_dict(), "candidate": _timed(0.080).to_dict(),
         "eager_device": _timed(0.036, wall=0.04, host=0.010).to_dict(),
         "candidate_device": _timed(0.030, wall=0.035, host=0.045).to_dict()}
    assert verdict.cost_per_call(t, "eager") == (0.036, "pipelined")
    assert verdict.cost_per_call(t, "candidate") == (0.045, "pipelined")  # host-bound: its host time
    assert verdict.cost_per_call(t, "compile") == (None, None)
    t["candidate_device"] = _timed(0.030, wall=0.035, host=31.0, timeouts=5).to_dict()
    assert verdict.cost_per_call(t, "candidate") == (0.080, "idle")  # it waits on the device
    del t["eager_device"]
    assert verdict.cost_per_call(t, "eager") == (0.060, "idle")


def test_a_borrowed_compile_timing_keeps_its_ratio_to_this_workers_eager():
    # The rule, not figures: every clock torch.compile was timed on keeps its ratio to the eager
    # reference of the worker that timed it, re-based on this worker's eager on the same clock;
    # so the candidate's speedup over torch.compile is its own over eager divided by
    # torch.compile's over eager there. The inputs are made up; no time is measured here.
    there = {"eager": _timed(0.100, wall=0.110).to_dict(), "compile": _timed(0.050, wall=0.060).to_dict(),
             "eager_device": _timed(0.080, wall=0.09, host=0.02).to_dict(),
             "compile_device": _timed(0.040, wall=0.05, host=0.03).to_dict()}
    here = {"eager": _timed(0.120, wall=0.150).to_dict(), "candidate": _timed(0.030).to_dict(),
            "eager_device": _timed(0.072, wall=0.081, host=0.030).to_dict(),
            "candidate_device": _timed(0.024, wall=0.03, host=0.01).to_dict()}
    drift = verdict.borrow_compile(here, there)
    assert drift == pytest.approx(here["eager"]["median_ms"] / there["eager"]["median_ms"])
    for eager, compiled in (("eager", "compile"), ("eager_device", "compile_device")):
        clocks = [f for f, v in there[compiled].items() if f.endswith("_ms") and v and there[eager].get(f)]
        assert {"median_ms", "wall_median_ms"} <= set(clocks)
        for f in clocks:
            assert here[compiled][f] / here[eager][f] == pytest.approx(there[compiled][f] / there[eager][f]), f
    result = {"device": "cuda:0", "notes": []}
    verdict.decide(result, {}, {"timings": here}, {"results": {"trial0": {"ok": True}}}, [], None, EvalOptions())
    compile_over_eager = verdict.cost_per_call(there, "eager")[0] / verdict.cost_per_call(there, "compile")[0]
    assert result["speedup_vs_compile"] == pytest.approx(result["speedup_vs_eager"] / compile_over_eager)
    # What this worker timed itself is never replaced; with no eager timing there is no base.
    own = {"eager": _timed(0.1).to_dict(), "compile": _timed(0.07).to_dict()}
    kept = dict(own["compile"])
    assert verdict.borrow_compile(own, there) is None and own["compile"] == kept
    assert verdict.borrow_compile({"candidate": _timed(0.1).to_dict()}, there) is None


def _verdict_of(timings):
    result = {"device": "cuda:0", "notes": []}
    judged = {"results": {"trial0": {"ok": True}}}
    verdict.decide(result, {}, {"timings": {k: v.to_dict() for k, v in timings.items()}}, judged, [], None,
                 EvalOptions())
    return result


# ------------------------------------------------------------- precision contract

# Relative errors against float64 (rel_l2) of the classes, as measured on GEMMs of random
# normal operands (benchmarks/results/precision_evidence_*.md): float32 eager, a candidate at
# 2.1x that (the most any honest float32 candidate reached), TF32 (0.6 of its unit roundoff),
# bfloat16 operands (8x TF32).
FP32_EAGER, FP32_HONEST, TF32, BF16 = 1.5e-6, 3.2e-6, 2.9e-4, 2.3e-3


@pytest.mark.parametrize("precision,cand,eager,ok", [
    ("highest", FP32_HONEST, FP32_EAGER, True),
    ("highest", 15 * FP32_EAGER, FP32_EAGER, True),
    ("highest", 17 * FP32_EAGER, FP32_EAGER, False),
    ("highest", TF32, FP32_EAGER, False),        # TF32 inside: 193x
    ("highest", 3.1e-4, 1.02e-6, False),         # float16 GEMM operands (H100, 304x)
    ("high", TF32, TF32, True),                  # eager is TF32 itself (CUDA)
    ("high", TF32, FP32_EAGER, True),            # eager is not (CPU): TF32's floor
    ("high", 2 * TF32, TF32, True),              # still below 2x the floor
    ("high", BF16, TF32, False),
    ("high", BF16, FP32_EAGER, False),
    ("medium", BF16, TF32, True),
    ("medium", BF16, FP32_EAGER, True),
    ("medium", 16 * BF16, BF16, False),          # float8 (4 mantissa bits)
])
def test_precision_contract_on_float32_outputs(precision, cand, eager, ok):
    check = verdict.precision_check(cand, eager, ["float32"], precision)
    assert (check["flag"] is None) == ok, check
    assert check["allowed"] == verdict.PRECISION_RATIO[precision]
    if not ok:
        assert check["flag"] == "reduced_precision"
        assert check["why"].startswith("computes below the requested precision '%s': error " % precision)
        assert "(allowed %gx for '%s')" % (check["allowed"], precision) in check["why"]


def test_precision_contract_reason_names_what_the_error_is_measured_against():
    why = verdict.precision_check(3.1e-4, 1.02e-6, ["float32"], "highest")["why"]
    assert why == ("computes below the requested precision 'highest': error 3.1e-4 vs float64 is 304x "
                   "eager's (allowed 16x for 'highest')")
    why = verdict.precision_check(2.1e-3, 1.7e-8, ["float32"], "high")["why"]
    assert "is 4.3x the TF32 unit roundoff 4.9e-4 (eager's error, 1.7e-8, is below it)" in why
    # Eager exact (a copy, a scale by two): the float32 unit roundoff is what is compared.
    check = verdict.precision_check(1e-8, 0.0, ["float32"], "highest")
    assert check["ratio"] == pytest.approx(1e-8 / 2.0**-24) and check["flag"] is None
    assert verdict.precision_check(0.0, 0.0, ["float32"], "highest")["ratio"] == 0.0


def test_precision_contract_on_half_precision_outputs():
    """float16 and bfloat16 problems keep their dtype's floor and one multiple at any float32
    matmul precision: that precision governs float32 alone, and their eager reference is low
    precision already (honest candidates: 0.43-0.75 of the floor)."""
    for precision in ("highest", "high", "medium"):
        assert verdict.precision_bound(["float16"], precision) == (2.0**-11, "float16 unit roundoff", 4.0)
        assert verdict.precision_bound(["bfloat16", "int64"], precision) == (2.0**-8, "bfloat16 unit roundoff", 4.0)
        # A float16 accumulation over 4096 terms (19x) fails; rounding to float16 does not.
        assert verdict.precision_check(9.4e-3, 2.1e-4, ["float16"], precision)["flag"] == "reduced_precision"
        assert verdict.precision_check(2.1e-4, 2.1e-4, ["float16"], precision)["flag"] is None
        assert verdict.precision_check(1.9e-3, 1.8e-3, ["bfloat16"], precision)["flag"] is None
    assert verdict.precision_bound(["float64"], "medium") == (2.0**-53, "float64 unit roundoff", 16.0)
    assert verdict.precision_bound(["int64"], "high") == (2.0**-11, "TF32 unit roundoff", 2.0)
    assert verdict.precision_bound(["float32", "float16"], "high")[2] == 2.0
    with pytest.raises(ValueError):
        verdict.precision_bound(["float32"], "low")


def test_max_error_ratio_replaces_the_precision_default():
    check = verdict.precision_check(3.1e-4, 1.02e-6, ["float32"], "highest", max_error_ratio=1000.0)
    assert check["flag"] is None and check["allowed"] == 1000.0
    assert "above the 16x that precision 'highest' allows; passed under max_error_ratio 1000" in check["note"]
    check = verdict.precision_check(FP32_HONEST, FP32_EAGER, ["float32"], "highest", max_error_ratio=1.5)
    assert check["flag"] == "exceeds_error_ratio" and "(allowed 1.5x by max_error_ratio)" in check["why"]
    assert verdict.precision_check(FP32_HONEST, FP32_EAGER, ["float32"], "highest", 4.0)["note"] is None


def test_recorded_evaluations_keep_their_side_of_the_bounds():
    """Every honest candidate recorded under benchmarks/results passes the contract at the
    precision it ran at, and every one with lower precision inside fails it."""
    path = os.path.join(os.path.dirname(CASES), "..", "benchmarks", "precision_evidence.py")
    spec = importlib.util.spec_from_file_location("precision_evidence", path)
    evidence = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(evidence)
    rows, _, unclassified = evidence.collect()
    assert unclassified == []
    honest = [r for r in rows if r["group"] == "honest"]
    lower = [r for r in rows if r["group"] == "lower precision inside"]
    assert len(honest) >= 150 and {r["precision"] for r in honest} == {"highest", "high"}
    assert [r["label"] for r in honest if r["fails"]] == []
    assert len(lower) >= 8 and all(r["fails"] for r in lower)


def _judged(cand_rel, eager_rel, ok=True):
    err = lambda rel: {"max_abs": rel, "max_rel": rel, "rel_l2": rel}  # noqa: E731
    return {"results": {"trial0": {"ok": ok, "cand": err(cand_rel), "eager": err(eager_rel)},
                        "wide(trial0)": {"ok": True, "cand": err(cand_rel / 2), "eager": err(eager_rel / 2)}}}


def _precision_verdict(cand_rel, eager_rel, precision, speedup, ok=True, **options):
    result = {"device": "cuda:0", "notes": []}
    prepared = {"fp64": "float64 on cuda", "output_dtypes": ["float32"], "float32_matmul_precision": precision}
    timings = {"eager": _timed(0.060 * speedup), "candidate": _timed(0.060)}
    verdict.decide(result, prepared, {"timings": {k: v.to_dict() for k, v in timings.items()}},
                 _judged(cand_rel, eager_rel, ok), [], None, EvalOptions(**options))
    return result


def test_a_fast_candidate_below_the_requested_precision_fails_and_counts_nowhere():
    """The float16-operand GEMM measured at 6.85x on an H100 passed with a note and counted in
    fast_1; under 'highest' it now fails, and fast_p and the geometric mean leave it out."""
    cheat = _precision_verdict(3.1e-4, 1.02e-6, "highest", 6.85)
    assert cheat["verdict"] == "fail" and "reduced_precision" in cheat["flags"]
    assert cheat["reason"] == ("reduced_precision: computes below the requested precision 'highest': error 3.1e-4 "
                               "vs float64 is 304x eager's (allowed 16x for 'highest')")
    assert cheat["precision"] == "highest" and cheat["error_ratio"] == pytest.approx(3.1e-4 / 1.02e-6)
    assert cheat["allowed_error_ratio"] == 16.0
    honest = _precision_verdict(1.1e-6, 1.02e-6, "highest", 1.5)
    assert honest["verdict"] == "pass" and honest["flags"] == [], honest["reason"]
    s = report.summarize([dict(cheat, id="cheat"), dict(honest, id="honest")])
    assert s["fast_0"] == 0.5 and s["fast_1"] == 0.5 and s["fast_2"] == 0.0
    assert s["geomean_speedup_vs_eager"] == pytest.approx(1.5)
    # The same candidate where TF32-class error was asked for passes, and counts.
    loose = _precision_verdict(3.1e-4, 2.9e-4, "high", 6.85)
    assert loose["verdict"] == "pass" and loose["flags"] == [], loose["reason"]
    assert report.summarize([loose])["fast_2"] == 1.0
    # Given as an override, the ratio decides alone, and the result says what it let through.
    let = _precision_verdict(3.1e-4, 1.02e-6, "highest", 6.85, max_error_ratio=500.0)
    assert let["verdict"] == "pass" and "passed under max_error_ratio 500" in " ".join(let["notes"])


def test_precision_flag_on_a_wrong_output_only_where_the_error_looks_like_rounding():
    rounded = _precision_verdict(2e-3, 1.7e-8, "highest", 1.0, ok=False)
    assert rounded["verdict"] == "fail" and rounded["reason"].startswith("wrong output on trial0")
    assert "reduced_precision" in rounded["flags"]
    wrong = _precision_verdict(0.5, 1.7e-8, "highest", 1.0, ok=False)
    assert wrong["verdict"] == "fail" and "reduced_precision" not in wrong["flags"]


def test_a_host_bound_side_is_flagged_and_passes():
    device_bound = {"eager": _timed(0.060), "candidate": _timed(0.050),
                    "eager_device": _timed(0.040, wall=0.05, host=0.010),
                    "candidate_device": _timed(0.030, wall=0.04, host=0.020)}
    r = _verdict_of(device_bound)
    assert r["verdict"] == "pass" and "host_bound" not in r["flags"]
    assert r["speedup_vs_eager"] == pytest.approx(0.040 / 0.030)
    r = _verdict_of(dict(device_bound, candidate_device=_timed(0.030, wall=0.04, host=0.045)))
    assert r["verdict"] == "pass" and r["speedup_vs_eager"] == pytest.approx(0.040 / 0.045)
    assert r["flag_details"]["host_bound"].startswith("candidate: 45.0 us of host work per call against 30.0 us")
    assert r["speedup_vs_eager_device"] == pytest.approx(0.040 / 0.030)


# ------------------------------------------------------------------ process tree


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="process tree read from /proc")
def test_process_tree_finds_detached_descendants_and_their_device_files(monkeypatch):
    from kernelwright.harness import proctree

    # A shell that starts a holder of /dev/null in a session of its own and waits.  The shell
    # gives a background job /dev/null as its stdin unless told otherwise, which would show the
    # holder as holding it before its setsid(); and between its fork and the redirection the
    # child is still the shell, with the shell's stdin, which is not /dev/null either (a pipe),
    # whatever stdin the test runner has.
    holder = "import os, time; os.setsid(); f = open('/dev/null'); time.sleep(60)"
    sh = subprocess.Popen(["sh", "-c", '"$0" -c "$1" < /dev/zero & wait', sys.executable, holder],
                          stdin=subprocess.PIPE)
    try:
        deadline = time.time() + 30
        monkeypatch.setattr(proctree, "DEVICE_FILES", "/dev/null")
        while True:
            below = proctree.descendants(sh.pid)
            if below and "time.sleep(60)" in proctree.command_line(below[0]) and proctree.uses_gpu(below[0]):
                break
            assert time.time() < deadline, below
            time.sleep(0.05)
        assert "time.sleep(60)" in proctree.command_line(below[0])
        assert proctree.process_group(sh.pid) == os.getpgrp()
        assert proctree.process_group(below[0]) == below[0]  # its own session and group
        monkeypatch.setattr(proctree, "DEVICE_FILES", "/dev/nvidia")
        assert not proctree.uses_gpu(below[0])
        assert proctree.kill_descendants(sh.pid) == below
        sh.wait(timeout=30)
        time.sleep(0.2)
        assert not os.path.exists("/proc/%d/cmdline" % below[0]) or proctree.command_line(below[0]) == ""
    finally:
        sh.kill()

"""Problems sized against the memory there is: the estimate, the skip, and a judge whose
references take at most about two copies of a set and one output (docs/harness.md, "Memory")."""

import gc
import os
import subprocess
import sys
import weakref
from types import SimpleNamespace

import pytest
import torch

from kernelwright.harness import candidate, evaluate, fit, handles, reference_store
from kernelwright.harness.loading import load_module
from kernelwright.harness.references import own_tree
from kernelwright.run import bundled_problems_dir

CASES = os.path.join(os.path.dirname(__file__), "harness_cases")
FAST = dict(device="cpu", trials=2, compile=False, timing_budget_s=0.2, min_reps=5, warmup_ms=5.0, timeout=120,
            seed=1234)
GIB = 1 << 30
SIZED = os.path.join(CASES, "problems", "elu_sized.py")
ELU_CANDIDATE = os.path.join(CASES, "candidates", "elu_lean.py")
# mul_training_step at KernelBench's size: three 4096 x 393216 float32 inputs, three outputs.
MTS = 3 * 4096 * 393216 * 4


def test_peak_is_the_largest_phase_of_either_worker():
    s, o = 3 * GIB, 5 * GIB
    assert fit.peaks(s, o)[("candidate", "recycled-memory check")] == 2 * s + 3 * o
    assert fit.required_bytes(s, o) == (2 * s + 3 * o, ("candidate", "recycled-memory check"))
    # A reduction: outputs small beside the inputs; the weights count once per model.
    need, _ = fit.required_bytes(8 * GIB, 0, weight_bytes=GIB)
    assert need == 16 * GIB + 3 * GIB
    assert fit.required_bytes(MTS, MTS)[0] == 90 * GIB


def _load_full_size(monkeypatch, name):
    monkeypatch.delenv("KERNELWRIGHT_PROBLEM_SIZE", raising=False)
    return load_module(os.path.join(bundled_problems_dir(), name, "problem.py"), "kw_fit_" + name)


def test_dry_forward_sizes_a_problem_of_any_size_without_memory(monkeypatch):
    p = _load_full_size(monkeypatch, "mul_training_step")
    assert fit.dry_sizes(p.Model, p.get_init_inputs(), p.get_inputs, 1, "cpu") == (MTS, MTS, 0)


class _FakeCuda:
    """What the judge reads of a GPU: its free and total memory and its name.  The dry forward
    runs on fake CPU tensors: a CPU build of torch aborts on a fake CUDA tensor under autograd."""

    def __init__(self, monkeypatch, name, free, total):
        real = fit.dry_sizes
        monkeypatch.setattr(fit, "dry_sizes", lambda Model, init, get_inputs, seed, device: real(
            Model, init, get_inputs, seed, "cpu"))
        monkeypatch.setattr(torch.cuda, "mem_get_info", lambda device=None: (free, total))
        monkeypatch.setattr(torch.cuda, "memory_stats", lambda device=None: {})
        monkeypatch.setattr(torch.cuda, "get_device_properties",
                            lambda device=None: SimpleNamespace(name=name, total_memory=total))


def _misfit(problem, device, init_inputs=()):
    """What the judge learns before it makes anything: (why it does not fit, output bytes, note)."""
    return fit.misfit(problem.Model, list(init_inputs), problem.get_inputs, 7, torch.device(device),
                      {"trial_seeds": [7], "memory_limit_mb": 4096})


# (name, free, total) as mem_get_info gives them with two workers' contexts made.
H100 = ("NVIDIA H100 80GB HBM3", 78 * GIB, int(79.2 * GIB))
H200 = ("NVIDIA H200", 138 * GIB, int(139.8 * GIB))


def test_mul_training_step_is_skipped_on_an_80_gb_gpu_and_runs_on_a_141_gb_one(monkeypatch):
    p = _load_full_size(monkeypatch, "mul_training_step")
    _FakeCuda(monkeypatch, *H100)
    why = _misfit(p, "cuda:0")[0]
    assert why is not None, "the check let an evaluation that needs 90 GiB onto an 80 GB GPU"
    assert why["input_bytes"] == MTS and why["output_bytes"] == MTS and why["needed_bytes"] == 90 * GIB
    assert why["free_bytes"] == 78 * GIB and why["peak"] == "candidate: recycled-memory check"
    assert why["reason"] == (
        "does not fit cuda:0 (NVIDIA H100 80GB HBM3): input sets of 18.0 GiB and outputs of 18.0 GiB need "
        "about 90.0 GiB at the peak (the candidate worker's recycled-memory check) plus 3.5 GiB of headroom; "
        "78.0 GiB of 79.2 GiB is free")
    _FakeCuda(monkeypatch, *H200)
    why, out_bytes, _ = _misfit(p, "cuda:0")
    assert why is None and out_bytes == MTS  # the float64 placement uses it


def test_every_bundled_problem_but_the_training_step_fits_an_80_gb_gpu(monkeypatch):
    _FakeCuda(monkeypatch, *H100)
    for name in sorted(os.listdir(bundled_problems_dir())):
        if not os.path.isfile(os.path.join(bundled_problems_dir(), name, "problem.py")):
            continue
        p = _load_full_size(monkeypatch, name)
        why = _misfit(p, "cuda:0", p.get_init_inputs())[0]
        assert (why is not None) == (name == "mul_training_step"), (name, why)


def test_a_forward_fake_tensors_cannot_follow_is_run_as_before_and_noted(monkeypatch):
    class Model(torch.nn.Module):
        def forward(self, x):
            return x[: int(x.sum().item() > 0) + 1]  # data-dependent: no size without the data

    _FakeCuda(monkeypatch, *H100)
    why, out_bytes, note = _misfit(SimpleNamespace(Model=Model, get_inputs=lambda: [torch.randn(4, 4)]), "cuda:0")
    assert why is None and out_bytes is None
    assert note.startswith("memory need not estimated beforehand: a forward on fake tensors failed")


def test_a_problem_over_the_memory_cap_is_skipped_not_crashed():
    # 1 GiB per set needs about 5 GiB in the candidate worker; the cap is 2 GiB.  Without the
    # check the judge's first draw dies under the cap: a crash.
    r = evaluate(SIZED, ELU_CANDIDATE, memory_limit_mb=2048, env={"KW_TEST_ELEMENTS": str(1 << 28)}, **FAST)
    assert r["verdict"] == "skipped", (r["verdict"], r["reason"])
    assert r["reason"].startswith("does not fit a worker's memory cap (2048 MiB): input sets of 1.0 GiB and "
                                  "outputs of 1.0 GiB need about 5.0 GiB at the peak"), r["reason"]
    assert r["does_not_fit"]["needed_bytes"] == 5 * GIB and r["log_tail"] is None


def test_a_skipped_problem_leaves_the_suite_exit_status_alone(tmp_path):
    suite = tmp_path / "suite"
    for task, elements in (("fits", 1 << 14), ("too_large", 1 << 28)):
        (suite / task).mkdir(parents=True)
        text = open(SIZED).read().replace('os.environ.get("KW_TEST_ELEMENTS", "16384")', '"%d"' % elements)
        (suite / task / "problem.py").write_text(text)
        (suite / task / "elu.py").write_text(open(os.path.join(CASES, "problems", "elu.py")).read())
        (suite / task / "candidate_lean.py").write_text(open(ELU_CANDIDATE).read())
    proc = subprocess.run([sys.executable, "-m", "kernelwright.cli", "eval", "--suite", str(suite), "--out",
                           str(tmp_path / "out"), "--device", "cpu", "--trials", "1", "--no-compile",
                           "--timing-budget", "0.1", "--memory-limit", "2048"],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ, COLUMNS="200"))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "too_large skipped: does not fit a worker's memory cap (2048 MiB)" in proc.stdout, proc.stdout
    summary = (tmp_path / "out" / "summary.md").read_text()
    assert "| too_large/candidate_lean | skipped |" in summary and "1 pass, 1 skipped" in summary
    assert "| 1.000 |" in summary  # fast_0 over the candidates that ran


@pytest.mark.parametrize("problem,cand", [
    ("elu", "elu_correct"), ("softmax", "softmax_correct"), ("layer_norm", "layer_norm_two_pass"),
    ("linear_relu", "linear_relu_wrong"), ("elu", "elu_bfloat16_output"),
])
def test_references_on_the_host_or_recomputed_judge_exactly_as_kept_ones(problem, cand):
    """The references kept from the reference trials (eager on a copy of the set), those moved
    to host memory and back, and those computed again when judging (float64 first, eager on the
    set itself, outputs not copied) give the same verdict and the same error figures, to the
    last bit."""
    def judged(**kw):
        r = evaluate(os.path.join(CASES, "problems", problem + ".py"),
                     os.path.join(CASES, "candidates", cand + ".py"), **dict(FAST, **kw))
        return r, {k: r[k] for k in ("verdict", "error_vs_fp64", "reference_error_vs_fp64", "error_ratio")}

    kept, kept_figures = judged()
    hosted, hosted_figures = judged(reference_cache_bytes=0)
    again, again_figures = judged(reference_cache_bytes=0, reference_host_bytes=0)
    assert any("kept on the host" in n for n in hosted["notes"])
    assert any("recomputed when judging" in n for n in again["notes"])
    assert not any("recomputed when judging" in n or "kept on the host" in n for n in kept["notes"])
    assert not any("recomputed when judging" in n for n in hosted["notes"])
    assert hosted_figures == kept_figures and again_figures == kept_figures
    assert hosted["correctness"]["sets"] == kept["correctness"]["sets"] == again["correctness"]["sets"]


def test_references_wait_on_the_host_only_where_recomputing_costs_more():
    """Level-1 29's 19.3 GB of references a set took 0.3 s to compute and would take about 19 s
    to copy out and back: recomputed; level-1 68's 3.7 GB took 8 s: hosted; references computed
    in host memory stay there whatever they cost."""
    assert not reference_store.worth_hosting(0.3, 19.3e9, on_device=True)
    assert reference_store.worth_hosting(8.0, 3.7e9, on_device=True)
    assert reference_store.worth_hosting(0.001, 19.3e9, on_device=False)


def test_references_kept_on_the_device_within_what_the_judge_can_spare():
    """Beyond keep_bytes, a set's references stay on the device while the spare room holds
    them (meta tensors stand for device ones); kept on the host they never count against it."""
    holder = handles.Holder(torch, budget=767)
    store = reference_store.ReferenceStore(keep_bytes=100, host_bytes=0, holder=holder)

    def refs(device):
        return torch.empty(64, device=device), torch.empty(64, dtype=torch.float64, device=device)

    store.add("short", *refs("meta"), computed_s=1.0)  # 768 bytes
    holder.budget = 768 + 700
    store.add("room", *refs("meta"), computed_s=1.0)
    store.add("full", *refs("meta"), computed_s=1.0)
    store.add("host", *refs("cpu"), computed_s=1.0)
    assert [store.get(n, "meta") is not None for n in ("short", "room", "full", "host")] == [False, True, False, False]
    assert store.spare_bytes == holder.reserved == 768
    assert any("recomputed when judging (3 of 4 sets" in n for n in store.notes(4))
    store.clear()
    assert store.spare_bytes == holder.reserved == 0 and store.get("room", "meta") is None


@pytest.mark.cuda
def test_references_kept_in_the_judges_share_of_the_device_judge_as_recomputed_ones():
    """With no reference cache and no host room, the judge's share of the device keeps the
    references; without handles (no share) they are recomputed; verdicts and figures agree."""
    def judged(**kw):
        r = evaluate(os.path.join(CASES, "problems", "softmax.py"), os.path.join(CASES, "candidates", "softmax_correct.py"),
                     **dict(FAST, device="cuda", reference_cache_bytes=0, reference_host_bytes=0, **kw))
        return r, {k: r[k] for k in ("verdict", "error_vs_fp64", "reference_error_vs_fp64", "error_ratio")}

    spared, spared_figures = judged()
    again, again_figures = judged(device_exchange=False)
    assert not any("recomputed when judging" in n for n in spared["notes"]), spared["notes"]
    assert any("recomputed when judging" in n for n in again["notes"]), again["notes"]
    assert spared_figures == again_figures and spared_figures["verdict"] == "pass"


def test_sets_are_bounded_by_the_time_their_references_take():
    notes = []
    assert fit.sets_in_time(3, 5, 1.0, 12.0, notes) == (3, 5) and not notes
    assert fit.sets_in_time(3, 5, 3.0, 12.0, notes) == (1, 3) and "3.0 s a set: 1 trials and 3 variants" in notes[0]
    assert fit.sets_in_time(3, 5, 100.0, 12.0, []) == (1, 1)  # never fewer than two sets
    assert fit.sets_in_time(3, 5, 100.0, None, []) == (3, 5)
    assert fit.sets_in_time(2, 1, 5.0, 12.0, []) == (1, 1)  # from fewer sets than the default


def test_rechecks_are_bounded_by_the_time_their_references_take():
    notes = []
    assert fit.rechecks_in_time(1.0, 12.0, 3, notes) == 3 and not notes
    assert fit.rechecks_in_time(1.5, 12.0, 3, notes) == 2 and "2 timed calls re-checked" in notes[0]
    assert fit.rechecks_in_time(100.0, 12.0, 3, []) == 1
    assert fit.rechecks_in_time(100.0, None, 3, []) == 3


def test_a_reference_budget_spent_on_the_first_set_leaves_two_sets():
    r = evaluate(os.path.join(CASES, "problems", "elu.py"), os.path.join(CASES, "candidates", "elu_correct.py"),
                 **dict(FAST, trials=3, reference_budget_s=1e-9))
    assert r["verdict"] == "pass", r["reason"]
    assert any("a set: 1 trials and 1 variants" in n for n in r["notes"]), r["notes"]
    assert any("1 timed call re-checked in advance" in n for n in r["notes"]), r["notes"]
    assert len(r["correctness"]["sets"]) == 2


def test_outputs_are_copied_only_where_they_share_memory():
    x = torch.randn(8, 8)
    alone, aliased, view = torch.randn(8, 8), x[0], torch.randn(16, 8)[:8]
    out = own_tree((alone, aliased, {"v": view}), [x])
    assert out[0].untyped_storage().data_ptr() == alone.untyped_storage().data_ptr()
    assert out[1].untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    assert out[2]["v"].untyped_storage().nbytes() == 8 * 8 * 4
    assert all(torch.equal(a, b) for a, b in ((out[0], alone), (out[1], aliased), (out[2]["v"], view)))


@pytest.mark.cuda
def test_a_problem_needing_more_than_half_the_device_passes():
    """One input of about an eighth of the device: the evaluation's peak (five sets, in the
    candidate worker) is more than half of it, the float64 reference (four sets more beside
    one) more than the device has left, so it runs where it fits."""
    free, total = torch.cuda.mem_get_info()
    elements = int(total * 0.12) // 4 // 1024 * 1024
    need, _ = fit.required_bytes(4 * elements, 4 * elements)
    assert need > total // 2
    if need + fit.CONTEXT_BYTES + max(GIB, total // 32) > free:
        pytest.skip("other processes hold %.1f GiB of the device" % ((total - free) / GIB))
    r = evaluate(SIZED, os.path.join(CASES, "candidates", "elu_correct.py"), device="cuda", trials=2,
                 compile=False, timing_budget_s=0.5, timeout=600, env={"KW_TEST_ELEMENTS": str(elements)})
    assert r["verdict"] == "pass", (r["reason"], r.get("log_tail"))
    assert r["correctness"]["fp64_reference"] != "unavailable", r["notes"]


def test_the_recycled_memory_check_retries_without_the_first_attempts_tensors():
    """Where holding the cached blocks runs out of device memory, the check runs again without
    holding them, and by then the first attempt's tensors are gone: the exception's traceback,
    which keeps its frames, is no longer alive (the retry ran out of memory too while it was)."""
    attempts = []

    class Check(candidate._Candidate):
        def __init__(self):  # no worker: only what recycling() uses
            self.torch, self.device, self.notes = torch, torch.device("cpu"), []
            self.chan, self.no_grad, self.sets = SimpleNamespace(phase=lambda name: None), torch.no_grad, [("s0", None)]

        def _set(self, name):
            return torch.randn(4)

        def _recycling_rounds(self, x, hold):
            held = torch.randn(1024)  # the poisoned blocks a held attempt keeps
            if hold:
                attempts.append(weakref.ref(held))
                raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 9.50 GiB")
            gc.collect()
            attempts.append(attempts[0]() is None)

    check = Check()
    check.recycling()
    assert attempts[1] is True
    assert check.notes and "cached memory not held" in check.notes[0] and "9.50 GiB" in check.notes[0]

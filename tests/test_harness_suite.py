"""Suites: discovery, parallel builds, JSONL results the moment they are known, resume."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from kernelwright.harness import evaluate_suite
from tests.processes import processes_mentioning

CASES = os.path.join(os.path.dirname(__file__), "harness_cases")
FAST = dict(device="cpu", trials=1, compile=False, timing_budget_s=0.1, min_reps=3, warmup_ms=1.0, timeout=60)


def _suite(tmp_path):
    d = tmp_path / "suite"
    (d / "elu").mkdir(parents=True)
    shutil.copy(os.path.join(CASES, "problems", "elu.py"), d / "elu" / "problem.py")
    shutil.copy(os.path.join(CASES, "candidates", "elu_correct.py"), d / "elu" / "candidate_good.py")
    shutil.copy(os.path.join(CASES, "candidates", "raises.py"), d / "elu" / "candidate_raises.py")
    (d / "problems").mkdir()
    (d / "candidates").mkdir()
    shutil.copy(os.path.join(CASES, "problems", "linear_relu.py"), d / "problems" / "linear_relu.py")
    shutil.copy(os.path.join(CASES, "candidates", "linear_relu_correct.py"), d / "candidates" / "linear_relu_s0.py")
    shutil.copy(os.path.join(CASES, "candidates", "syntax_error.py"), d / "candidates" / "linear_relu_s1.py")
    return str(d)


def _lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def test_suite_end_to_end_and_resume(tmp_path):
    suite = _suite(tmp_path)
    out = str(tmp_path / "out")
    os.makedirs(out)
    # A result from an earlier, interrupted run, plus a torn line it was writing.
    earlier = {"id": "elu/candidate_good", "verdict": "pass", "speedup_vs_eager": 2.0, "reason": "from before",
               "flags": []}
    with open(os.path.join(out, "results.jsonl"), "w") as f:
        f.write(json.dumps(earlier) + "\n" + '{"id": "elu/candidate_rai')
    seen = []
    summary = evaluate_suite(suite, out, on_result=lambda r: seen.append(r["id"]), jobs=2, **FAST)

    assert sorted(seen) == ["elu/candidate_raises", "linear_relu/linear_relu_s0", "linear_relu/linear_relu_s1"]
    lines = _lines(os.path.join(out, "results.jsonl"))
    assert [r["id"] for r in lines][0] == "elu/candidate_good" and lines[0]["reason"] == "from before"
    by_id = {r["id"]: r for r in lines}
    assert len(by_id) == 4
    assert by_id["elu/candidate_raises"]["verdict"] == "error"
    assert by_id["linear_relu/linear_relu_s0"]["verdict"] == "pass"
    bad = by_id["linear_relu/linear_relu_s1"]
    assert bad["verdict"] == "error" and "build" in bad["reason"] and "SyntaxError" in bad["reason"]

    assert summary["total"] == 4 and summary["verdicts"] == {"pass": 2, "error": 2}
    assert summary["fast_0"] == 0.5
    for key in ("markdown", "json", "plot"):
        assert os.path.getsize(summary["files"][key]) > 0
    with open(summary["files"]["markdown"]) as f:
        md = f.read()
    assert "## Evaluation time" in md
    assert re.search(r"\| linear_relu/linear_relu_s0 \| \d+\.\d \| \d+\.\d \| (judge|candidate): ", md), md
    assert os.path.exists(os.path.join(out, "json", "linear_relu__linear_relu_s0.json"))

    # Everything is recorded now: a rerun evaluates nothing.
    seen.clear()
    again = evaluate_suite(suite, out, on_result=lambda r: seen.append(r["id"]), **FAST)
    assert seen == [] and again["total"] == 4


def test_suite_cli_exit_status(tmp_path):
    d = tmp_path / "s"
    (d / "elu").mkdir(parents=True)
    shutil.copy(os.path.join(CASES, "problems", "elu.py"), d / "elu" / "problem.py")
    shutil.copy(os.path.join(CASES, "candidates", "elu_correct.py"), d / "elu" / "candidate.py")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-m", "kernelwright.harness.cli", "eval", "--suite", str(d),
                        "--out", str(tmp_path / "o"), "--device", "cpu", "--trials", "1", "--no-compile",
                        "--timing-budget", "0.1"], capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "fast_1" in p.stdout and os.path.exists(tmp_path / "o" / "speedups.png")


def _interruptible():
    # A job started in the background of a script inherits SIGINT ignored, and Python then
    # installs no handler for it: the Ctrl-C below would never arrive.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_suite_interrupted_keeps_results_and_kills_workers_at_once(tmp_path):
    d = tmp_path / "s"
    (d / "elu" / "candidates").mkdir(parents=True)
    shutil.copy(os.path.join(CASES, "problems", "elu.py"), d / "elu" / "problem.py")
    for name, source in (("a_good", "elu_correct"), ("b_hangs", "hangs"), ("c_good", "elu_correct")):
        shutil.copy(os.path.join(CASES, "candidates", source + ".py"), d / "elu" / "candidates" / (name + ".py"))
    out = tmp_path / "o"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.Popen([sys.executable, "-m", "kernelwright.harness.cli", "eval", "--suite", str(d),
                          "--out", str(out), "--device", "cpu", "--trials", "1", "--no-compile",
                          "--timing-budget", "0.1", "--timeout", "600"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                         preexec_fn=_interruptible)
    try:
        deadline = time.time() + 240
        # Wait until the hanging candidate's worker is the one running.
        while not os.path.exists(out / "work" / "elu__b_hangs" / "candidate.log"):
            assert p.poll() is None and time.time() < deadline, p.stdout.read()
            time.sleep(0.2)
        time.sleep(3)
        p.send_signal(signal.SIGINT)
        # The hanging evaluation would hold the suite for its --timeout of 600 s.
        try:
            stdout, _ = p.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            pytest.fail("the interruption waited for the running evaluation")
    finally:
        p.kill()
    assert p.returncode == 130, stdout
    assert "interrupted with 1 of 3 results" in " ".join(stdout.split()), stdout
    assert [r["id"] for r in _lines(out / "results.jsonl")] == ["elu/a_good"]
    assert processes_mentioning(str(out)) == []


def test_suite_without_pairs_says_which_layouts_it_reads(tmp_path):
    (tmp_path / "s" / "task").mkdir(parents=True)
    (tmp_path / "s" / "task" / "problem.py").write_text("")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for suite, why in ((tmp_path / "s", "TASK/candidates/*.py"), (tmp_path / "missing", "no such directory")):
        p = subprocess.run([sys.executable, "-m", "kernelwright.harness.cli", "eval", "--suite", str(suite),
                            "--out", str(tmp_path / "o"), "--device", "cpu"],
                           capture_output=True, text=True, env=env, timeout=120)
        said = "".join(p.stdout.split())
        assert p.returncode == 2 and "Traceback" not in p.stdout + p.stderr, p.stdout + p.stderr
        assert "--suite:" in said and str(suite) in said and why.replace(" ", "") in said, p.stdout
    assert not os.path.exists(tmp_path / "o")


def test_a_problems_judge_serves_each_of_its_candidates_as_its_own_would(tmp_path):
    # Shared: one judge prepared for the problem judges every candidate in turn, the ones
    # after a crash in the middle of the timing included, each candidate in a worker started
    # while the one before it ran.  The verdicts are those of a judge per candidate.
    d = tmp_path / "suite" / "elu"
    (d / "candidates").mkdir(parents=True)
    shutil.copy(os.path.join(CASES, "problems", "elu.py"), d / "problem.py")
    shutil.copy(os.path.join(CASES, "candidates", "_fails_when_timed.py"), d / "candidates")
    order = ["elu_correct", "segfault", "crashes_when_timed", "elu_lean", "raises", "elu_inline_cpp"]
    for k, name in enumerate(order):
        shutil.copy(os.path.join(CASES, "candidates", name + ".py"), d / "candidates" / ("%d_%s.py" % (k, name)))
    runs = {}
    for share in (True, False):
        out = str(tmp_path / ("out_%s" % share))
        summary = evaluate_suite(str(tmp_path / "suite"), out, share=share, seed=11, **FAST)
        runs[share] = {r["id"]: r for r in summary["results"]}
        assert not os.path.exists(os.path.join(out, "work", "_spares-host"))
    verdicts = {share: {i: r["verdict"] for i, r in recs.items()} for share, recs in runs.items()}
    assert verdicts[True] == verdicts[False]
    assert [verdicts[True]["elu/%d_%s" % (k, n)] for k, n in enumerate(order)] == [
        "pass", "crash", "crash", "pass", "error", "pass"]
    for share, recs in runs.items():
        # Reference trials: once for the problem when shared, for every judged candidate if not.
        prepared = [i for i, r in recs.items() if "reference trials" in r["phase_s"].get("judge", {})]
        assert len(prepared) == (1 if share else len(order))
        # Shared, every candidate but the first ran in a worker started ahead, given its job
        # (and its build directory) when its turn came; its log moved to its own directory.
        taken = 0
        for i, r in recs.items():
            work = os.path.join(str(tmp_path / ("out_%s" % share)), "work", i.replace("/", "__"))
            assert os.path.isfile(os.path.join(work, "candidate.log"))
            with open(os.path.join(work, "candidate.job.json")) as f:
                environ = json.load(f).get("environ")
            if environ is not None:
                taken += 1
                assert environ["TORCH_EXTENSIONS_DIR"].endswith(os.path.join("build", i.replace("/", "__")))
            if r["verdict"] == "pass":
                assert r["correctness"]["sets"] and r["error_vs_fp64"]["rel_l2"] < 1e-6
        assert taken == (len(order) - 1 if share else 0)


def test_the_judge_of_the_next_problem_comes_from_a_worker_started_ahead(tmp_path):
    # Two problems in a row: the second one's judge was started while the first was judged and
    # took its job when its turn came; the verdicts are those of judges started for each.
    suite = tmp_path / "suite"
    for problem, cand in (("elu", "elu_correct"), ("softmax", "softmax_correct")):
        (suite / problem / "candidates").mkdir(parents=True)
        shutil.copy(os.path.join(CASES, "problems", problem + ".py"), suite / problem / "problem.py")
        shutil.copy(os.path.join(CASES, "candidates", cand + ".py"), suite / problem / "candidates")
    verdicts = {}
    for share in (True, False):
        out = tmp_path / ("out_%s" % share)
        summary = evaluate_suite(str(suite), str(out), share=share, seed=5, **FAST)
        verdicts[share] = {r["id"]: r["verdict"] for r in summary["results"]}
        if share:
            jobs = {}
            for path in (out / "work").glob("_judge-*/judge.job.json"):
                jobs[path.parent.name] = json.loads(path.read_text())
            assert len(jobs) == 2 and sum("environ" in job for job in jobs.values()) == 1, jobs
            assert sorted(os.path.basename(job["problem"]) for job in jobs.values()) == ["problem.py"] * 2
    assert verdicts[True] == verdicts[False] == {"elu/elu_correct": "pass", "softmax/softmax_correct": "pass"}


"""Suites on a Dask cluster of worker processes on this host's CPU: honest, crashing, hanging
and cheating candidates; Dask workers killed mid-candidate, a client killed mid-suite.  The
verdicts must equal a single-host run's, each once in results.jsonl."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pytest
from distributed import Client, LocalCluster, Nanny, Scheduler, SpecCluster

from kernelwright.distributed.common import TOPIC
from kernelwright.harness import evaluate_suite
from tests.optimize_util import small_level
from tests.processes import processes_mentioning

CASES = os.path.join(os.path.dirname(__file__), "harness_cases")
# The hanging candidate costs `timeout` seconds each time it runs.
FAST = dict(device="cpu", trials=1, compile=False, timing_budget_s=0.1, min_reps=3, warmup_ms=1.0, timeout=8)
CLI_FAST = ["--device", "cpu", "--trials", "1", "--no-compile", "--timing-budget", "0.1", "--timeout", "8"]
ELU = {"a_good": "candidates/elu_correct", "b_raises": "candidates/raises", "c_segfault": "candidates/segfault",
       "d_hangs": "candidates/hangs", "e_returns_input": "exploits/returns_input"}
EXPECTED = {"elu/a_good": "pass", "elu/b_raises": "error", "elu/c_segfault": "crash", "elu/d_hangs": "timeout",
            "elu/e_returns_input": "fail", "linear_relu/linear_relu_cache": "fail"}
# Kills the process that started its harness worker: on a cluster, the Dask worker running it.
KILLS_ITS_WORKER = '''import os
import signal

import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()

    def forward(self, x):
        os.kill(os.getppid(), signal.SIGKILL)
        return x
'''
SCRATCH = os.path.join(tempfile.gettempdir(), "kernelwright-dask")


def _suite(root, elu=ELU, extra=None):
    d = root / "suite"
    (d / "elu" / "candidates").mkdir(parents=True)
    shutil.copy(os.path.join(CASES, "problems", "elu.py"), d / "elu" / "problem.py")
    for name, source in elu.items():
        shutil.copy(os.path.join(CASES, source + ".py"), d / "elu" / "candidates" / (name + ".py"))
    for name, text in (extra or {}).items():
        (d / "elu" / "candidates" / (name + ".py")).write_text(text)
    return d


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    d = _suite(tmp_path_factory.mktemp("distributed"))
    (d / "problems").mkdir()
    (d / "candidates").mkdir()
    shutil.copy(os.path.join(CASES, "problems", "linear_relu.py"), d / "problems" / "linear_relu.py")
    shutil.copy(os.path.join(CASES, "exploits", "cache_by_value.py"), d / "candidates" / "linear_relu_cache.py")
    return str(d)


@pytest.fixture(scope="module")
def single_host(suite, tmp_path_factory):
    summary = evaluate_suite(suite, str(tmp_path_factory.mktemp("single") / "out"), **FAST)
    verdicts = {r["id"]: r["verdict"] for r in summary["results"]}
    assert verdicts == EXPECTED, summary["results"]
    return verdicts


def _lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def _kill(client, worker):
    pid = client.run(os.getpid, workers=[worker])[worker]
    os.kill(pid, signal.SIGKILL)


def test_a_worker_killed_mid_candidate_changes_no_verdict(suite, single_host, tmp_path):
    """Dask's own rule re-runs the task of a lost worker (allowed-failures left at its
    default): the hanging candidate's worker is killed while it hangs, and it runs again."""
    out = tmp_path / "out"
    killed = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, resources={"GPU": 1},
                      dashboard_address=None) as cluster, Client(cluster) as watcher:
        def on_start(event):
            msg = event[1]
            if msg["id"] == "elu/d_hangs" and not killed:
                killed.append(msg["worker"])
                # Its harness workers are up by then, the candidate's forward() hanging.
                threading.Timer(3.0, _kill, (watcher, msg["worker"])).start()

        watcher.subscribe_topic(TOPIC, on_start)
        summary = evaluate_suite(suite, str(out), scheduler=cluster.scheduler_address, **FAST)
        workers = set(watcher.scheduler_info(n_workers=-1)["workers"]) | set(killed)

    lines = _lines(out / "results.jsonl")
    assert sorted(r["id"] for r in lines) == sorted(single_host)
    assert {r["id"]: r["verdict"] for r in lines} == single_host
    assert {r["id"]: r["verdict"] for r in summary["results"]} == single_host
    by_id = {r["id"]: r for r in lines}
    hang = by_id["elu/d_hangs"]
    assert [w["worker"] for w in hang["lost_workers"]] == killed
    assert hang["judged_by"]["worker"] != killed[0]
    for r in lines:
        assert r["judged_by"]["host"] == socket.gethostname() and r["judged_by"]["gpu"] == "cpu"
        assert r["judged_by"]["worker"] in workers
        assert r["id"] == "elu/d_hangs" or r["lost_workers"] == []
    assert by_id["elu/a_good"]["candidate"] == os.path.join(suite, "elu", "candidates", "a_good.py")
    with open(out / "summary.md") as f:
        assert "## Where each was judged" in f.read()
    # The killed worker's harness processes (the hanging candidate's above all) died with it.
    assert processes_mentioning(SCRATCH) == []


def _cli(*args, env=None, **kw):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **(env or {}))
    return [sys.executable, "-m", "kernelwright", *args], dict(env=env, text=True, **kw)


def test_lost_twice_is_a_crash_and_a_killed_client_resumes(tmp_path):
    """kernelwright's own rule (the scheduler re-runs nothing): a candidate that kills its
    worker runs on a second one, then is a crash naming both; builds go to the worker without
    a GPU; the client, killed after its first record, resumes without redoing it."""
    suite = _suite(tmp_path, {"a_good": "candidates/elu_correct", "f_syntax": "candidates/syntax_error",
                              "g_good": "candidates/elu_correct"}, {"k_kills": KILLS_ITS_WORKER})
    out = tmp_path / "out"
    gpu = {"cls": Nanny, "options": {"nthreads": 1, "resources": {"GPU": 1}}}
    workers = {"gpu-0": gpu, "gpu-1": gpu, "build": {"cls": Nanny, "options": {"nthreads": 1}}}
    with SpecCluster(workers=workers, scheduler={"cls": Scheduler, "options": {
            "dashboard_address": None, "allowed_failures": 0}}) as cluster:
        command, kw = _cli("eval", "--suite", str(suite), "--out", str(out), "--scheduler",
                           cluster.scheduler_address, *CLI_FAST)
        first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
        try:
            deadline = time.time() + 120
            while not (out / "results.jsonl").exists() or not (out / "results.jsonl").read_text():
                assert first.poll() is None and time.time() < deadline
                time.sleep(0.1)
        finally:
            first.kill()
            first.wait()
        before = (out / "results.jsonl").read_text()
        again = subprocess.run(command, capture_output=True, timeout=300, **kw)
    assert again.returncode == 1, again.stdout + again.stderr
    after = (out / "results.jsonl").read_text()
    assert after.startswith(before)
    lines = _lines(out / "results.jsonl")
    assert sorted(r["id"] for r in lines) == ["elu/a_good", "elu/f_syntax", "elu/g_good", "elu/k_kills"]
    by_id = {r["id"]: r for r in lines}
    assert [by_id["elu/%s" % n]["verdict"] for n in ("a_good", "f_syntax", "g_good")] == ["pass", "error", "pass"]
    assert "build" in by_id["elu/f_syntax"]["reason"] and "SyntaxError" in by_id["elu/f_syntax"]["reason"]
    kills = by_id["elu/k_kills"]
    assert kills["verdict"] == "crash" and kills["cause"] == "worker_lost", kills
    lost = [w["worker"] for w in kills["lost_workers"]]
    assert len(lost) == 2 and lost[0] != lost[1] and all(w in kills["reason"] for w in lost)
    # The resumed client prints each record it adds with where it was judged. Which records the
    # killed client wrote first is a race, so only the ones written afterwards are looked for.
    printed = " ".join(again.stdout.split())
    written_before = {json.loads(line)["id"] for line in before.splitlines() if line.strip()}
    added = [r for r in lines if r["id"] not in written_before]
    assert added and all(r["id"] in printed for r in added)
    for r in added:
        if r.get("judged_by"):
            assert "[%s, %s (" % (socket.gethostname(), r["judged_by"]["gpu"]) in printed, r


def test_an_unreachable_scheduler_is_named_and_exits_2(tmp_path):
    suite = _suite(tmp_path, {"a_good": "candidates/elu_correct"})
    for what, directory in (("eval", suite), ("optimize", suite / "elu")):
        command, kw = _cli(what, "--suite", str(directory), "--out", str(tmp_path / what), "--scheduler",
                           "tcp://127.0.0.1:9", env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
        p = subprocess.run(command, capture_output=True, timeout=120, **kw)
        said = " ".join(p.stdout.split())
        assert p.returncode == 2 and "Traceback" not in p.stdout + p.stderr, p.stdout + p.stderr
        assert "--scheduler: cannot reach the Dask scheduler at tcp://127.0.0.1:9" in said, said


def test_optimize_suite_on_a_local_cluster(tmp_path):
    level = small_level(tmp_path / "level")
    out = tmp_path / "out"
    command, kw = _cli("optimize", "--suite", str(level), "--out", str(out), "--scheduler", "local-cluster")
    p = subprocess.run(command, capture_output=True, timeout=600, cwd=tmp_path, **kw)
    assert p.returncode == 1, p.stdout + p.stderr
    records = sorted(_lines(out / "results.jsonl"), key=lambda r: r["problem"])  # in the order they finished
    assert [(r["problem"], r["verdict"]) for r in records] == [("1_pointwise", "pass"), ("2_branchy", "error")]
    model = out / "models" / "1_pointwise_kernelwright.py"
    assert records[0]["output"] == str(model) and model.is_file() and (out / "reports" / "1_pointwise.md").is_file()
    assert records[0]["path"] == str(level / "1_pointwise.py")
    assert records[1]["judged_by"]["host"] == socket.gethostname()
    md = (out / "summary.md").read_text()
    assert "## Where each was judged" in md and md.index("| 1_pointwise |") < md.index("| 2_branchy |")
    again = subprocess.run(command, capture_output=True, timeout=600, cwd=tmp_path, **kw)
    assert len(_lines(out / "results.jsonl")) == 2, again.stdout + again.stderr

"""``kernelwright optimize --suite DIR --out OUT``: every problem file in DIR (a KernelBench
level folder as published: ``DIR/<n>_<name>.py``), each in its own process, its record
appended to OUT/results.jsonl as it comes; a rerun skips what is there. The summary counts
KernelBench's fast_p and geometric-mean speedups over problems that pass.
"""

import json
import os
import subprocess
import sys
import tempfile

from kernelwright.harness.report import judged_by_markdown, plot, summarize

from .report import suite_markdown

RESULTS = "results.jsonl"


def problem_files(directory):
    def order(name):
        head = name.split("_", 1)[0]
        return (int(head), name) if head.isdigit() else (10**9, name)

    names = [f for f in os.listdir(directory) if f.endswith(".py") and not f.startswith("_")]
    return [os.path.join(directory, f) for f in sorted(names, key=order)]


def done_records(out):
    path = os.path.join(out, RESULTS)
    if not os.path.isfile(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def run_suite(directory, out, precision="highest", timeout=600, on_start=None, on_result=None, scheduler=None):
    """Optimizes every pending problem; returns (records, summary).  ``scheduler``, a Dask
    scheduler's address or "local-cluster", runs them on that cluster's GPU workers (see
    docs/distributed.md)."""
    if not os.path.isdir(directory):
        raise ValueError("not a directory: %s" % directory)
    problems = problem_files(directory)
    if not problems:
        raise ValueError("no problem files (*.py) in %s" % directory)
    os.makedirs(out, exist_ok=True)
    records = done_records(out)
    seen = {r["path"] for r in records}
    pending = [p for p in problems if os.path.abspath(p) not in seen]
    if on_start:
        on_start(len(problems), len(problems) - len(pending))

    def add(record):
        with open(os.path.join(out, RESULTS), "a") as f:
            f.write(json.dumps(record, default=str) + "\n")
        records.append(record)
        if on_result:
            on_result(record)

    if scheduler and pending:
        from kernelwright.distributed import optimize_pending

        optimize_pending(scheduler, pending, out, precision, timeout, add)
    else:
        for path in pending:
            add(optimize_one(path, out, precision, timeout))
    # On a cluster records come as they finish; the summary lists them in the folder's order.
    order = {os.path.abspath(p): i for i, p in enumerate(problems)}
    records.sort(key=lambda r: order.get(r.get("path"), len(order)))
    summary = summarize(records)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(suite_markdown(records, summary) + judged_by_markdown(records))
    plot([dict(r, id=r["problem"]) for r in records], os.path.join(out, "speedups.png"), title="kernelwright optimize")
    return records, summary


def optimize_one(path, out, precision, timeout):
    """One problem in a child process, so that a crash, a hang or a poisoned CUDA context
    costs that problem alone."""
    stem = os.path.splitext(os.path.basename(path))[0]
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        json_path = f.name
    command = [sys.executable, "-m", "kernelwright", "optimize", path, "--precision", precision, "--quiet",
               "-o", os.path.join(out, "models", stem + "_kernelwright.py"),
               "--report", os.path.join(out, "reports"), "--json", json_path]
    os.makedirs(os.path.join(out, "models"), exist_ok=True)
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    log = os.path.join(out, "logs", stem + ".log")
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        with open(log, "w") as f:
            f.write(proc.stdout + proc.stderr)
        try:
            with open(json_path) as f:
                return json.load(f)
        except (OSError, ValueError):
            last = [line for line in proc.stderr.strip().splitlines() if line.strip()][-1:] or ["no output"]
            return {"problem": stem, "path": os.path.abspath(path), "verdict": "crash", "log": log,
                    "reason": "optimize exited %d without a record: %s (whole output: %s)" % (
                        proc.returncode, last[0][:300], log)}
    except subprocess.TimeoutExpired:
        return {"problem": stem, "path": os.path.abspath(path), "verdict": "timeout",
                "reason": "optimize took over %d s" % timeout}
    finally:
        if os.path.exists(json_path):
            os.unlink(json_path)

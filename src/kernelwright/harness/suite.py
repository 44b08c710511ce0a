"""Evaluate many (problem, candidate) pairs, resumably.

Suite layouts (both may be used in one directory):

    DIR/<task>/problem.py           DIR/problems/<task>.py
    DIR/<task>/candidate*.py        DIR/candidates/<task>*.py   (<task>, then _ - . or end)
    DIR/<task>/candidates/*.py      DIR/candidates/<task>/*.py

Order of work: every pending candidate is imported in its own build worker, in parallel
on the CPU cores, each with its own TORCH_EXTENSIONS_DIR (OUT/build/<id>), so
``load_inline`` builds run side by side; the evaluations run meanwhile, one worker per
visible GPU (one at a time on the CPU), each on a pair whose build is done, reusing it.
Each GPU takes the next candidate of the problem it is on while there is one, so that the
problem's judge and torch.compile timing serve them all (session.py; ``share=False``
gives each its own).
Each result is appended to OUT/results.jsonl as soon as it is known; a rerun skips every
id already there.
"""

import json
import os
import re
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from kernelwright.harness import report
from kernelwright.harness.api import EvalOptions
from kernelwright.harness.process import Worker, WorkerFailure, kill_all
from kernelwright.harness.protocol import Event, Role
from kernelwright.harness.session import ProblemJudge, Spares, evaluate_with, sanitize

RESULTS = "results.jsonl"


def _py_files(d):
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".py") and not f.startswith("_"))


def discover(suite_dir):
    """[(id, problem_path, candidate_path)] for every pair in ``suite_dir``."""
    suite_dir = os.path.abspath(suite_dir)
    pairs = []
    for task in sorted(os.listdir(suite_dir)):
        tdir = os.path.join(suite_dir, task)
        problem = os.path.join(tdir, "problem.py")
        if not os.path.isfile(problem):
            continue
        cands = [p for p in _py_files(tdir) if os.path.basename(p).startswith("candidate")]
        cands += _py_files(os.path.join(tdir, "candidates"))
        for c in cands:
            pairs.append(("%s/%s" % (task, os.path.splitext(os.path.basename(c))[0]), problem, c))
    problems = {os.path.splitext(os.path.basename(p))[0]: p for p in _py_files(os.path.join(suite_dir, "problems"))}
    cdir = os.path.join(suite_dir, "candidates")
    # Longest name first, so that candidates of task "11" are not taken by task "1".
    names = sorted(problems, key=len, reverse=True)
    for c in _py_files(cdir):
        stem = os.path.splitext(os.path.basename(c))[0]
        for name in names:
            if stem == name or (stem.startswith(name) and stem[len(name)] in "_-."):
                pairs.append(("%s/%s" % (name, stem), problems[name], c))
                break
    for name in names:
        for c in _py_files(os.path.join(cdir, name)):
            pairs.append(("%s/%s" % (name, os.path.splitext(os.path.basename(c))[0]), problems[name], c))
    return pairs


def load_results(path):
    """Results already in a JSONL file; a torn last line (an interrupted write) is cut off."""
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
        with open(path, "wb") as f:
            f.write(data)
    out = []
    for line in data.decode(errors="replace").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and "id" in rec:
            out.append(rec)
    return out


def safe_name(name):
    """``name`` as one file name: an id's "/" and anything unusual become "__"."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "__", name)


def visible_gpus():
    import torch

    if not torch.cuda.is_available():
        return []
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    ids = [x.strip() for x in env.split(",") if x.strip()] if env else None
    n = torch.cuda.device_count()
    return (ids or [str(i) for i in range(n)])[:n]


class _Sink:
    """Appends results to the JSONL file and per-candidate JSON, one writer at a time."""

    def __init__(self, out_dir, on_result=None):
        self.path = os.path.join(out_dir, RESULTS)
        self.json_dir = os.path.join(out_dir, "json")
        os.makedirs(self.json_dir, exist_ok=True)
        self.lock = threading.Lock()
        self.on_result = on_result
        self.new = []

    def add(self, rec):
        rec = sanitize(rec)
        with self.lock:
            with open(self.path, "a") as f:
                f.write(json.dumps(rec) + "\n")
                f.flush()
                os.fsync(f.fileno())
            with open(os.path.join(self.json_dir, safe_name(rec["id"]) + ".json"), "w") as f:
                json.dump(rec, f, indent=2)
            self.new.append(rec)
            if self.on_result:
                self.on_result(rec)


def build_pair(pair, out_dir, opts):
    """Import the candidate in a build worker, its extensions built in OUT/build/<id>; a
    result dict if that failed, else None."""
    pid, problem, cand = pair
    workdir = os.path.join(out_dir, "work", safe_name(pid))
    env = dict(os.environ)
    env.update(opts.env or {})
    env["TORCH_EXTENSIONS_DIR"] = os.path.join(out_dir, "build", safe_name(pid))
    job = {"role": Role.BUILD, "candidate": os.path.abspath(cand), "device": opts.device}
    w = Worker(Role.BUILD, job, workdir, env, memory_limit_mb=opts.memory_limit_mb,
               build_timeout=opts.build_timeout, timeout=opts.build_timeout)
    try:
        w.wait_for(Event.BUILT)
        return None
    except WorkerFailure as f:
        return {"id": pid, "problem": os.path.abspath(problem), "candidate": os.path.abspath(cand),
                "verdict": f.verdict, "reason": "candidate build, %s: %s" % (f.phase, f.reason),
                "flags": [], "log_tail": f.log_tail, "phase": f.phase,
                "traceback": f.details.get("traceback")}
    finally:
        w.close()


def evaluate_pair(pair, out_dir, opts, env=None, judge=None, spares=None):
    """The record of one pair, evaluated with the build that :func:`build_pair` left in
    ``out_dir``; ``env`` replaces ``opts.env`` for the workers; ``judge`` and ``spares`` as
    the GPU's loop shares them (session.py)."""
    pid, problem, cand = pair
    opts = EvalOptions.make(opts, env=opts.env if env is None else env,
                            build_dir=os.path.join(out_dir, "build", safe_name(pid)),
                            workdir=os.path.join(out_dir, "work", safe_name(pid)))
    res = evaluate_with(problem, cand, opts, judge, spares)
    res["id"] = pid
    return res


class SuiteInterrupted(KeyboardInterrupt):
    """Ctrl-C during a suite: what was recorded stays, and the same call resumes from it."""

    def __init__(self, results_path, done, total):
        super().__init__("interrupted with %d of %d results in %s; the same command resumes from there"
                         % (done, total, results_path))
        self.results_path, self.done, self.total = results_path, done, total


def _map_cancellable(fn, items, n, cancel):
    """``list(map(fn, items))`` on ``n`` threads.  On an interruption (Ctrl-C) the workers are
    killed before the threads are joined, so it takes effect at once, not when the running
    evaluations end; ``fn`` sees ``cancel`` set and records nothing more."""
    pool = ThreadPoolExecutor(max_workers=n)
    try:
        return list(pool.map(fn, items))
    except BaseException:
        cancel.set()
        kill_all()
        raise
    finally:
        pool.shutdown(wait=True)


def _next_pair(queue, qlock, builds, judge, cancel):
    """The pair a GPU evaluates next, taken off ``queue``: a built candidate of the problem its
    judge serves, else any built one, else (waiting for the next build to end) the same again;
    None when nothing is left.  Candidates that need no build so start the evaluations at once,
    and a problem's judge serves its candidates in a row."""
    while not cancel.is_set():
        with qlock:
            if not queue:
                return None
            done = [i for i, p in enumerate(queue) if p[0] not in builds or builds[p[0]].done()]
            same = [i for i in done if judge is not None and os.path.abspath(queue[i][1]) == judge.problem]
            if same or done:
                return queue.pop((same or done)[0])
            waiting = [builds[p[0]] for p in queue]
        wait(waiting, timeout=1.0, return_when=FIRST_COMPLETED)
    return None


def _evaluate_pending(pending, out_dir, opts, jobs, sink, build_first):
    """Builds on ``jobs`` threads (where ``build_first``) and evaluations, one worker per
    visible GPU, at once: a GPU takes a pair once its build is done, so the evaluations start
    with the first build rather than the last.  By default the builds leave two cores per GPU
    to its evaluation (the candidate worker, and the next one starting beside it)."""
    cancel = threading.Event()
    gpus = visible_gpus() if opts.device in ("auto", "cuda") else []
    slots = [{"CUDA_VISIBLE_DEVICES": g} for g in gpus] or [{}]
    builds = {}
    pool = None
    if build_first and pending:
        n = jobs or max(1, (os.cpu_count() or 1) - 2 * len(slots))
        pool = ThreadPoolExecutor(max_workers=n)
        for pair in pending:
            builds[pair[0]] = pool.submit(lambda p: None if cancel.is_set() else build_pair(p, out_dir, opts), pair)
    queue = list(pending)
    qlock = threading.Lock()

    def slot_loop(slot_env):
        env = dict(opts.env or {})
        env.update(slot_env)
        name = "gpu%s" % slot_env["CUDA_VISIBLE_DEVICES"] if slot_env else "host"
        judges = {}
        judge, spares = None, Spares(os.path.join(out_dir, "work", "_spares-" + safe_name(name)),
                                     EvalOptions.make(opts, env=env)) if opts.share else None
        try:
            while not cancel.is_set():
                pair = _next_pair(queue, qlock, builds, judge, cancel)
                if pair is None:
                    return
                pid, problem, cand = pair
                failed = builds[pid].result() if pid in builds else None
                if failed is not None:
                    if not cancel.is_set():  # a build killed by the interruption is no verdict
                        sink.add(failed)
                    continue
                if opts.share and (judge is None or judge.problem != os.path.abspath(problem)):
                    if judge is not None:
                        judge.retire()
                    # A problem this GPU served before keeps its seeds and what was measured for it.
                    judge = judges.get(os.path.abspath(problem)) or ProblemJudge(problem, opts, os.path.join(
                        out_dir, "work", "_judge-%s-%s" % (safe_name(pid.split("/")[0]), safe_name(name))), shared=True)
                    judges[judge.problem] = judge
                res = evaluate_pair((pid, problem, cand), out_dir, opts, env, judge, spares)
                if slot_env:
                    res["gpu"] = slot_env["CUDA_VISIBLE_DEVICES"]
                if not cancel.is_set():  # a worker killed by the interruption is no verdict
                    sink.add(res)
        finally:
            if judge is not None:
                judge.retire()
            if spares is not None:
                spares.close()

    try:
        _map_cancellable(slot_loop, slots, len(slots), cancel)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def evaluate_suite(suite_dir, out_dir=None, options=None, jobs=None, on_result=None,
                   on_start=None, build_first=True, scheduler=None, **overrides):
    """Evaluate every pair in ``suite_dir``; results go to ``out_dir`` (see module doc), by
    default kernelwright-report/eval-<suite directory's name>, where `kernelwright run` writes.

    ``scheduler``, a Dask scheduler's address or "local-cluster", runs the pending pairs on
    that cluster's workers instead of this host's (see docs/distributed.md); the results, the
    resume and the summary are the same.  ``on_start(total, already_done)`` and
    ``on_result(record)`` let a caller show progress.  Returns the summary from
    :func:`kernelwright.harness.report.summarize`, with ``results`` (every record, old and
    new) and the paths written.
    """
    opts = EvalOptions.make(options, **overrides)
    suite_dir = os.path.abspath(suite_dir)
    if not os.path.isdir(suite_dir):
        raise ValueError("suite directory %s: no such directory" % suite_dir)
    pairs = discover(suite_dir)
    if not pairs:
        raise ValueError(
            "suite directory %s holds no (problem, candidate) pair; expected TASK/problem.py with "
            "TASK/candidate*.py or TASK/candidates/*.py, or problems/NAME.py with "
            "candidates/NAME_*.py or candidates/NAME/*.py" % suite_dir)
    out_dir = os.path.abspath(out_dir or os.path.join("kernelwright-report", "eval-" + os.path.basename(suite_dir)))
    os.makedirs(out_dir, exist_ok=True)
    old = load_results(os.path.join(out_dir, RESULTS))
    done = {r["id"] for r in old}
    pending = [p for p in pairs if p[0] not in done]
    if on_start:
        on_start(len(pairs), len(pairs) - len(pending))
    sink = _Sink(out_dir, on_result)
    try:
        if scheduler and pending:
            from kernelwright.distributed import evaluate_pending

            evaluate_pending(scheduler, pending, out_dir, opts, sink.add, jobs=jobs, build_first=build_first)
        else:
            _evaluate_pending(pending, out_dir, opts, jobs, sink, build_first)
    except KeyboardInterrupt:
        raise SuiteInterrupted(os.path.join(out_dir, RESULTS), len(old) + len(sink.new), len(pairs)) from None

    results = old + sink.new
    order = {p[0]: i for i, p in enumerate(pairs)}
    results.sort(key=lambda r: order.get(r["id"], len(order)))
    summary = report.summarize(results)
    size = (opts.env or {}).get("KERNELWRIGHT_PROBLEM_SIZE", os.environ.get("KERNELWRIGHT_PROBLEM_SIZE"))
    summary["environment"] = report.environment(results, size)
    paths = report.write_all(results, summary, out_dir)
    summary.update(results=results, out_dir=out_dir, files=paths)
    return summary

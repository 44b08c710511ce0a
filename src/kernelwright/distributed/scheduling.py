"""The client's side of a suite on a Dask cluster: each pending unit (a pair to evaluate, a
problem to optimize) becomes a task on a GPU worker; each record is handed over as it arrives.

Dask re-runs a task whose worker is lost, up to its scheduler's allowed-failures, then gives
up with KilledWorker; it counts a task that waited on the lost worker without having begun as
well.  kernelwright applies its own rule instead, from the tasks' own word that they began
(common.TOPIC): a unit lost mid-run runs once more, on another worker; lost mid-run a second
time, it is recorded as a crash naming both workers.  A unit lost before it began is simply
submitted again.
"""

import logging
import os
import queue
import uuid

from distributed import KilledWorker

from kernelwright.distributed import tasks
from kernelwright.distributed.cluster import connect, split_workers
from kernelwright.distributed.common import ATTEMPTS, TOPIC, WORKER_LOST, SchedulerError, where
from kernelwright.harness.suite import safe_name

log = logging.getLogger("kernelwright.distributed")


class _Unit:
    def __init__(self, uid, payload, base):
        self.id, self.payload, self.base = uid, payload, base
        self.future = self.build = None
        self.starts = []  # where each attempt began, in order
        self.submitted = 0


def _file(path):
    with open(path, "rb") as f:
        return {"path": os.path.abspath(path), "name": os.path.basename(path), "text": f.read()}


def _lost(unit):
    lost = unit.starts[:ATTEMPTS]
    return dict(unit.base, verdict="crash", cause=WORKER_LOST, lost_workers=lost, flags=[],
                reason="its Dask worker was lost mid-run %d times (process killed or host lost): %s"
                       % (len(lost), "; then ".join(where(w) for w in lost)))


def _run(client, units, submit, finish):
    """Submits every unit, then hands each to ``finish(unit, result)`` once: a task's result,
    or the crash record of a unit that lost its worker mid-run ATTEMPTS times."""
    events = queue.Queue()
    run = units[0].payload["run"] if units else None
    open_units = {u.id: u for u in units}

    def launch(u):
        u.submitted += 1
        u.future = submit(u, "kernelwright-%s-%s-%d" % (run, safe_name(u.id), u.submitted))
        u.future.add_done_callback(lambda f, u=u: events.put(("done", u, f)))

    def close(u, result):
        del open_units[u.id]
        # Dropping the futures lets the cluster free the result and the build archive now,
        # not at the end of a suite of thousands.
        u.future = u.build = None
        finish(u, result)

    client.subscribe_topic(TOPIC, lambda event: events.put(("start", None, event[1])))
    try:
        for u in units:
            launch(u)
        while open_units:
            kind, u, item = events.get()
            if kind == "start":
                u = open_units.get(item.get("id")) if item.get("run") == run else None
                if u is None:
                    continue
                u.starts.append({k: item[k] for k in ("host", "gpu", "worker")})
                if len(u.starts) > 1:
                    log.warning("%s: its worker %s was lost mid-run; running it again on %s",
                                u.id, where(u.starts[-2]), where(u.starts[-1]))
                if len(u.starts) > ATTEMPTS:  # the scheduler re-ran it itself after the last loss
                    u.future.cancel()
                    close(u, _lost(u))
                continue
            if open_units.get(u.id) is not u or item is not u.future:
                continue  # a task given up on, whose end came after
            if item.status == "finished":
                close(u, item.result())
            elif item.status == "error" and isinstance(item.exception(), KilledWorker):
                if len(u.starts) >= ATTEMPTS:
                    close(u, _lost(u))
                else:
                    launch(u)
            elif item.status == "error":
                raise SchedulerError("the task for %s failed on the cluster (is kernelwright, the same "
                                     "version, installed on every worker?): %r" % (u.id, item.exception()))
            else:
                raise SchedulerError("the scheduler dropped the task for %s (%s): the connection to it was "
                                     "lost; what was recorded stays, and the same command resumes" % (u.id, item.status))
    finally:
        client.unsubscribe_topic(TOPIC)
        client.cancel([u.future for u in open_units.values()] + [u.build for u in open_units.values() if u.build],
                      force=True)


def evaluate_pending(scheduler, pending, out_dir, opts, record, jobs=None, build_first=True):
    """Evaluates each (id, problem, candidate) of ``pending`` on a worker offering GPU=1, after
    its build on a worker without one where the cluster has any (where not: on the GPU worker,
    just before its evaluation); ``record(rec)`` gets each record as it arrives."""
    run = uuid.uuid4().hex[:12]
    with connect(scheduler, jobs) as client:
        _, cpu_workers = split_workers(client, scheduler)
        units = []
        for pid, problem, cand in pending:
            payload = {"run": run, "id": pid, "problem": _file(problem),
                       "candidate": _file(cand)}
            units.append(_Unit(pid, payload, {"id": pid, "problem": payload["problem"]["path"],
                                              "candidate": payload["candidate"]["path"]}))

        def submit(u, key):
            if cpu_workers and build_first and (u.build is None or u.build.status in ("error", "cancelled")):
                u.build = client.submit(tasks.build, u.payload, opts, key=key + "-build", workers=cpu_workers,
                                        allow_other_workers=True, pure=False)
            return client.submit(tasks.evaluate, u.payload, opts, u.build if build_first else None, key=key,
                                 resources={"GPU": 1}, pure=False)

        _run(client, units, submit, lambda u, rec: record(dict(rec, lost_workers=_earlier(u, rec))))


def _earlier(u, rec):
    """The workers lost under a unit before the one that judged it."""
    if rec.get("cause") == WORKER_LOST:
        return rec["lost_workers"]
    judge = (rec.get("judged_by") or {}).get("worker")
    return [s for s in u.starts if s["worker"] != judge]


def optimize_pending(scheduler, pending, out, precision, timeout, record):
    """Optimizes each problem file of ``pending`` on a worker offering GPU=1; what it wrote
    (model, report, log) is copied under ``out`` and ``record(rec)`` gets its record."""
    run = uuid.uuid4().hex[:12]
    with connect(scheduler) as client:
        split_workers(client, scheduler)
        units = []
        for path in pending:
            payload = {"run": run, "id": os.path.basename(path), "problem": _file(path)}
            units.append(_Unit(payload["id"], payload, {"problem": os.path.splitext(payload["id"])[0],
                                                       "path": payload["problem"]["path"]}))

        def submit(u, key):
            return client.submit(tasks.optimize, u.payload, precision, timeout, key=key, resources={"GPU": 1},
                                 pure=False)

        def finish(u, result):
            if result.get("verdict") == "crash":  # lost twice: no files came back
                record(result)
                return
            for rel, data in result["files"].items():
                os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
                with open(os.path.join(out, rel), "wb") as f:
                    f.write(data)
            rec = {k: _moved(v, ((result["out"], os.path.abspath(out)), (result["path"], u.base["path"])))
                   for k, v in result["record"].items()}
            record(dict(rec, lost_workers=_earlier(u, rec)))

        _run(client, units, submit, finish)


def _moved(value, moves):
    """A path the worker wrote, as the same file on this host."""
    for there, here in moves:
        if isinstance(value, str) and (value == there or value.startswith(there + os.sep)):
            return here + value[len(there):]
    return value

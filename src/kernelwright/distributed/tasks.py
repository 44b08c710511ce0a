"""What runs on a Dask worker: one build, one evaluation or one optimization, each through the
same functions the single-host suites call, so that isolation, timeouts and verdicts are theirs.

Only file contents travel: each task writes the problem and candidate it was given under
<temp>/kernelwright-dask/<run>/ and removes them when done.  That root is the same on every
host of a run, so that a build made on a CPU worker sits at the path the GPU worker expects.
"""

import functools
import io
import os
import shutil
import socket
import subprocess
import tarfile
import tempfile

from distributed import get_worker

from kernelwright.distributed.common import TOPIC
from kernelwright.harness.suite import build_pair, evaluate_pair, safe_name
from kernelwright.optimize.suite import optimize_one


@functools.lru_cache(maxsize=1)
def _worker_gpu():
    """The name of the GPU this worker sees first, or "cpu" where nvidia-smi finds none."""
    index = (os.environ.get("CUDA_VISIBLE_DEVICES") or "0").split(",")[0].strip()
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader", "-i", index],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "cpu"
    name = out.stdout.strip().splitlines()
    return name[0] if out.returncode == 0 and name else "cpu"


def identity(device=None, device_name=None):
    """Host, GPU and worker address; the GPU as the evaluation itself reported it, where it did."""
    if device == "cpu":
        gpu = "cpu"
    elif device == "cuda" and device_name:
        gpu = device_name
    else:
        gpu = _worker_gpu()
    return {"host": socket.gethostname(), "gpu": gpu, "worker": get_worker().address}


def _announce(payload):
    get_worker().log_event(TOPIC, dict(identity(), run=payload["run"], id=payload["id"]))


def _root(payload):
    return os.path.join(tempfile.gettempdir(), "kernelwright-dask", payload["run"])


def _write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path


def _pair(payload, root):
    """(id, problem path, candidate path) of the files written here from the payload."""
    files = os.path.join(root, "files", safe_name(payload["id"]))
    return (payload["id"],
            _write(os.path.join(files, "problem", payload["problem"]["name"]), payload["problem"]["text"]),
            _write(os.path.join(files, "candidate", payload["candidate"]["name"]), payload["candidate"]["text"]))


def _clean(root, pid):
    for part in ("files", "work", "build"):
        shutil.rmtree(os.path.join(root, part, safe_name(pid)), ignore_errors=True)


def build(payload, opts):
    """Imports the candidate in a build worker: {"failure": its record or None, "archive": the
    extensions it built, as a tar}."""
    root = _root(payload)
    try:
        failure = build_pair(_pair(payload, root), root, opts)
        built = os.path.join(root, "build", safe_name(payload["id"]))
        archive = None
        if failure is None and os.path.isdir(built):
            buf = io.BytesIO()
            with tarfile.open(fileobj=buf, mode="w:gz") as tar:
                tar.add(built, arcname=".")
            archive = buf.getvalue()
        return {"failure": failure, "archive": archive}
    finally:
        _clean(root, payload["id"])


def evaluate(payload, opts, built=None):
    """The record of one pair: built here first unless ``built`` (from :func:`build`) says how
    its build went elsewhere, then evaluated as the single-host suite evaluates it."""
    _announce(payload)
    root = _root(payload)
    try:
        pair = _pair(payload, root)
        if built is None:
            rec = build_pair(pair, root, opts)
        else:
            rec = built["failure"]
            if built["archive"]:
                with tarfile.open(fileobj=io.BytesIO(built["archive"]), mode="r:gz") as tar:
                    tar.extractall(os.path.join(root, "build", safe_name(payload["id"])), filter="data")
        if rec is None:
            rec = evaluate_pair(pair, root, opts)
        rec.update(id=payload["id"], problem=payload["problem"]["path"], candidate=payload["candidate"]["path"],
                   judged_by=identity(rec.get("device"), rec.get("device_name")))
        return rec
    finally:
        if not opts.keep_workdir:
            _clean(root, payload["id"])


def optimize(payload, precision, timeout):
    """One problem optimized as the single-host suite does it, in its own process: {"record",
    "files": what it wrote (model, report, log) by path under the suite's OUT, "out", "path":
    where it wrote them and the problem here}."""
    _announce(payload)
    scratch = os.path.join(_root(payload), "optimize", safe_name(payload["id"]))
    try:
        path = _write(os.path.join(scratch, "problem", payload["problem"]["name"]), payload["problem"]["text"])
        out = os.path.join(scratch, "out")
        rec = optimize_one(path, out, precision, timeout)
        rec["judged_by"] = identity(rec.get("device"), rec.get("device_name"))
        files = {}
        for parent, _, names in os.walk(out):
            for name in names:
                full = os.path.join(parent, name)
                with open(full, "rb") as f:
                    files[os.path.relpath(full, out)] = f.read()
        return {"record": rec, "files": files, "out": out, "path": path}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

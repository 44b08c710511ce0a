"""Worker processes: the only places where problem and candidate code ever run.

    python -m kernelwright.harness.worker JOB.json MESSAGE_FD
    python -m kernelwright.harness.worker --spare ROLE MESSAGE_FD

Three roles, chosen by the job file, each in a module of its own:

``judge``      (judge.py) imports the problem only, owns the reference results and
               compares the candidate's outputs with them.
``candidate``  (candidate.py, candidate_timing.py) imports the problem and the candidate;
               runs the candidate with anti-cheat checks and times it against the references.
``build``      (build.py) imports the candidate only, so that its extensions get compiled.

Messages to the parent are JSON lines on MESSAGE_FD (names in protocol.py); stdout and
stderr go to a log file.  A spare worker (``--spare``) imports its role, makes its CUDA
context on the device it is told of, and waits for a ``take`` line naming its job and log: a
suite starts the next candidate's worker while the current one runs, so that this is not on
anybody's clock.
"""

import faulthandler
import json
import os
import sys

from kernelwright.harness import proctree
from kernelwright.harness.plumbing import Channel, failure
from kernelwright.harness.protocol import PARENT_ENV, PRECISION_ENV, WARM_DEVICE_ENV, Command, Event, Role, parse_command


def _role(name):
    """The module of role ``name``, imported only now, inside main's report of failures: the
    roles import torch and the harness modules that use it, and a failure there is reported
    like any other.  Each worker loads its own role only."""
    if name == Role.JUDGE:
        from kernelwright.harness import judge

        return judge
    if name == Role.CANDIDATE:
        from kernelwright.harness import candidate

        return candidate
    from kernelwright.harness import build

    return build


def _apply_precision():
    """The precision asked for (torch's own where none was), cuDNN's convolutions included, set
    before the problem and the candidate load so that both run at it. Imported here, as the
    roles are: it imports torch."""
    import torch

    from kernelwright import precision

    precision.apply(os.environ.get(PRECISION_ENV) or torch.get_float32_matmul_precision())


def _take():
    """A spare worker's job, once the parent gives it one (None: it was not needed): its
    output goes to the job's log from here on, it runs in the job's directory and with the
    job's additions to the environment."""
    cmd, arg = parse_command(sys.stdin.readline())
    if cmd != Command.TAKE:
        return None
    given = json.loads(arg)
    sys.stdout.flush()
    sys.stderr.flush()
    fd = os.open(given["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    with open(given["job"]) as f:
        job = json.load(f)
    os.environ.update(job.get("environ") or {})
    os.chdir(job["workdir"])
    return job


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if os.environ.get(PARENT_ENV):
        proctree.die_with_parent(int(os.environ[PARENT_ENV]))
    spare = argv[0] == "--spare"
    if spare:
        job, role, fd = None, argv[1], argv[2]
    else:
        with open(argv[0]) as f:
            job = json.load(f)
        role, fd = job["role"], argv[1]
    chan = Channel(int(fd))
    faulthandler.enable()
    proctree.adopt_orphans()
    try:
        _apply_precision()
        module = _role(role)
        if spare:
            module.warm(os.environ.get(WARM_DEVICE_ENV))
            job = _take()
        if job is not None:
            module.run(job, chan)
    except BaseException as exc:  # SystemExit from candidate code is a failure too
        chan.send(event=Event.FAILED, **failure(exc))
        proctree.kill_descendants(os.getpid())
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(3)
    # Nothing a candidate started outlives its worker (a new session escapes the group kill).
    proctree.kill_descendants(os.getpid())
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: candidate extensions and threads can hang or crash in it.
    os._exit(0)


if __name__ == "__main__":
    main()

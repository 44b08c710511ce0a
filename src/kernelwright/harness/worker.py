"""Worker processes: the only places where problem and candidate code ever run.

    python -m kernelwright.harness.worker JOB.json MESSAGE_FD

Three roles, chosen by the job file, each in a module of its own:

``judge``      (judge.py) imports the problem only, owns the reference results and
               compares the candidate's outputs with them.
``candidate``  (candidate.py, candidate_timing.py) imports the problem and the candidate;
               runs the candidate with anti-cheat checks and times it against the references.
``build``      (build.py) imports the candidate only, so that its extensions get compiled.

Messages to the parent are JSON lines on MESSAGE_FD (names in protocol.py); stdout and
stderr go to a log file.
"""

import faulthandler
import json
import os
import sys

from kernelwright.harness import proctree
from kernelwright.harness.plumbing import Channel, failure
from kernelwright.harness.protocol import PARENT_ENV, PRECISION_ENV, Event, Role


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


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if os.environ.get(PARENT_ENV):
        proctree.die_with_parent(int(os.environ[PARENT_ENV]))
    with open(argv[0]) as f:
        job = json.load(f)
    chan = Channel(int(argv[1]))
    faulthandler.enable()
    proctree.adopt_orphans()
    try:
        _apply_precision()
        _role(job["role"]).run(job, chan)
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

"""The names the parent and the worker processes exchange (see worker.py and session.py).

Both sides import them from here, so that a name misspelt on one side fails as an
AttributeError rather than as a worker that waits forever.  Nothing here imports torch:
the parent side must stay importable without it.
"""

# The float32 precision every worker runs at (kernelwright.precision applies it).
PRECISION_ENV = "KERNELWRIGHT_FLOAT32_MATMUL_PRECISION"
PRECISIONS = ("highest", "high", "medium")
# The pid of the process that started a worker: the worker dies with it (proctree.die_with_parent).
PARENT_ENV = "KERNELWRIGHT_HARNESS_PARENT"
# The device a spare worker's job will run on: the spare makes its context there while it waits.
WARM_DEVICE_ENV = "KERNELWRIGHT_WARM_DEVICE"


class Role:
    """What a worker process runs, from its job file; also the worker's name."""

    JUDGE = "judge"
    CANDIDATE = "candidate"
    BUILD = "build"


class Command:
    """Lines the parent writes to a worker's stdin: the name, then a space and a JSON
    argument where it takes one."""

    GO = "go"              # candidate: run on the judge's inputs
    CONTINUE = "continue"  # candidate: its outputs are judged, go on to the timing
    JUDGE = "judge"        # judge: compare the candidate's outputs
    RECHECK = "recheck"    # judge: compare the re-checked timed outputs
    EXIT = "exit"          # judge: done
    NEXT = "next"          # judge shared in a suite: serve the next candidate
    TAKE = "take"          # spare worker: here is your job


class Event:
    """The ``event`` of a worker's message to the parent."""

    READY = "ready"
    PREPARED = "prepared"
    BUILT = "built"
    OUTPUTS = "outputs"
    JUDGED = "judged"
    RESULT = "result"
    RECHECKED = "rechecked"
    FAILED = "failed"


class Cause:
    """The ``cause`` of a failure a worker reports (None where none is known)."""

    # The harness's own failures start with it; the parent blames neither side's code for them.
    HARNESS = "harness"
    EXCHANGE_SPACE = HARNESS + ": exchange space"
    EXCHANGE_BY_HANDLE = HARNESS + ": exchange by handle"
    INPUTS_NOT_REPRODUCED = HARNESS + ": inputs not reproduced"
    OUT_OF_MEMORY = "out of memory"
    CUDA_ERROR = "CUDA error"


def parse_command(line):
    """(command, argument text) of a line the worker read."""
    cmd, _, arg = line.strip().partition(" ")
    return cmd, arg

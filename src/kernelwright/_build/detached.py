"""Compiler runs that outlive the process that asked for them.

A GEMM epilogue shape takes 30-60 s of nvcc. A caller that stops waiting (the optimizer past
its deadline for a fused kernel, a process that ends) should not throw that work away: the
commands run in a process of their own session, under the directory's build lock, and each
output is renamed into place whole when its command succeeds, so the next caller finds it
cached. This module imports neither torch nor the extension, so that process starts in a
fraction of a second.

    python -m kernelwright._build.detached DIR JOBS_JSON
"""

import json
import os
import subprocess
import sys

from kernelwright._build.lock import build_lock


def partial(where, output):
    """Where a command writes ``output`` until it is whole: a name of this process's own, so that
    a build killed half-way and the one after it never write the same file."""
    return os.path.join(where, "%s.partial%d" % (output, os.getpid()))


def run(where, jobs):
    """Runs each job of ``jobs`` ([part, output, argv]; argv writes ``partial(where, output)``)
    side by side, its log in ``where``/part.log, and renames each output that succeeded into
    place. Returns the log of the first that failed, or None."""
    started = []
    for part, output, argv in jobs:
        log = open(os.path.join(where, part + ".log"), "w")
        started.append((output, log, subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                                      stdin=subprocess.DEVNULL)))
    failed = None
    for output, log, proc in started:
        code = proc.wait()
        log.close()
        if code == 0:
            os.replace(partial(where, output), os.path.join(where, output))
        elif failed is None:
            failed = log.name
    return failed


def start(where, jobs):
    """Starts ``jobs`` (as :func:`run` takes them, each argv naming the *child's* partial output
    through ``{partial}``) in a detached process: the Popen to wait on, or not. The outputs
    already in place are not built again."""
    return subprocess.Popen([sys.executable, "-m", "kernelwright._build.detached", where, json.dumps(jobs)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def main(argv):
    where, jobs = argv[0], json.loads(argv[1])
    with build_lock(where, log=lambda message: None):
        todo = [(part, output, [a.replace("{partial}", partial(where, output)) for a in command])
                for part, output, command in jobs if not os.path.isfile(os.path.join(where, output))]
        failed = run(where, todo) if todo else None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The build worker: imports the candidate only, so that its extensions get compiled
before the evaluations that reuse them (see suite.py)."""

import time

from kernelwright.harness.loading import load_module, require
from kernelwright.harness.protocol import Event

# Bound before the candidate is imported: it cannot replace what the worker calls.
_perf_counter = time.perf_counter


def run(job, chan):
    chan.phase("import candidate")
    t0 = _perf_counter()
    mod = load_module(job["candidate"], "kw_candidate")
    require(mod, ["ModelNew"], "candidate")
    chan.send(event=Event.BUILT, build_s=_perf_counter() - t0)

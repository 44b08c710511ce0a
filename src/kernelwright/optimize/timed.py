"""Timing and comparing on the device, as the optimizer's measured choices do it: medians of
many calls, variants given up after one hopeless call, calls timed in turns against a drifting
clock, and relative errors over outputs of any size."""

import statistics

import torch

from kernelwright import timing
from kernelwright.harness import roofline
from kernelwright.timing import time_fn

# A variant whose single timed call takes longer than this many times the best time so far is
# not timed further: one call's noise is a few tens of percent, so it cannot win, and timing it
# in full can cost minutes (one block a row on a single row of 2^30 elements takes seconds).
HOPELESS = 3.0
# The fewest calls a median here is taken over where ten would overrun its budget: a forward
# of 185 ms (level-1 68) took 20 s to time in turns with ten calls a turn, against 0.5 s asked.
LEAST_REPS = 3


def copy_bandwidth(device):
    """Bytes per second of a large device copy (read + written): the harness's memory ceiling."""
    flush = timing.flush_buffer_bytes(device)
    return roofline.copy_ceiling(device, None, flush, timing.time_fn)["copy_gbps"] * 1e9


def time_median(fn, args, device, budget_s):
    return time_fn(lambda: fn(*args), device=device, budget_s=budget_s, min_reps=10, least_reps=LEAST_REPS,
                   warmup=2, host_ahead=True).median_ms


def time_unless_hopeless(fn, args, device, budget_s, best_ms):
    """(median ms, True), or (one call's ms, False) where that call alone took over HOPELESS
    times ``best_ms``."""
    once = time_fn(lambda: fn(*args), device=device, warmup=0, warmup_ms=0.0, min_reps=1, max_reps=1,
                   budget_s=0.0, host_ahead=True).median_ms
    if once > HOPELESS * best_ms:
        return once, False
    return time_median(fn, args, device, budget_s), True


def rel_error(got, want, chunk=1 << 24):
    """Relative L2 error over the finite elements, in float64 a chunk at a time (an output can
    be gigabytes); inf where the NaN or infinity positions differ."""
    if got.shape != want.shape:
        return float("inf")
    if not want.is_floating_point():
        return float((got != want).sum())
    g, w = got.reshape(-1), want.reshape(-1)
    diff = scale = 0.0
    for start in range(0, w.numel(), chunk):
        a, b = g[start:start + chunk].double(), w[start:start + chunk].double()
        special = ~torch.isfinite(b)
        if not torch.equal(special, ~torch.isfinite(a)) or not torch.equal(a[special].nan_to_num(), b[special].nan_to_num()):
            return float("inf")
        diff += float(((a - b)[~special] ** 2).sum())
        scale += float((b[~special] ** 2).sum())
    return (diff / scale) ** 0.5 if scale > 0 else diff ** 0.5


def time_in_turns(fns, device, budget_s, rounds=5, timer=None):
    """The median ms of each of ``fns``, each timed once a round for ``rounds`` rounds: a clock
    that drifts (10% between calls on H200) weighs on all of them alike. ``timer(fn, budget_s)``
    times one (default: device time with the host running ahead)."""
    timer = timer or (lambda fn, budget: time_median(fn, (), device, budget))
    times = [[] for _ in fns]
    for _ in range(rounds):
        for t, fn in zip(times, fns):
            t.append(timer(fn, budget_s / rounds))
    return [statistics.median(t) for t in times]


def pipelined_timer(device):
    """A timer of what a call costs a caller that keeps the GPU fed, as the harness's headline
    counts it: the larger of its host and device times, the device held behind the timing gate
    until the call is queued. Where the host runs ahead of a small kernel the flush before each
    timed call hides the launch's host work (level-1 12's forward: 0.052 ms against Model's
    0.054 here, 0.90x eager in the harness). The device time where the gate is unavailable, or
    where it opened by itself (a call that waits on the device)."""
    if device.type != "cuda":
        return None
    if device not in _GATES:
        try:
            _GATES[device] = timing.Gate(device)
        except timing.GateUnavailable:
            return None
    gate = _GATES[device]

    def timer(fn, budget_s):
        r = time_fn(fn, device=device, budget_s=budget_s, min_reps=10, least_reps=LEAST_REPS, warmup=2, gate=gate)
        return r.median_ms if r.gate_timeouts or r.pipelined_median_ms is None else r.pipelined_median_ms

    return timer


_GATES = {}

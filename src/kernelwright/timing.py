"""How kernelwright times code: one utility for the harness and the benchmarks.

``time_fn(fn, make_args, device)`` calls ``fn(*make_args(i))`` repeatedly and returns a
:class:`TimingResult`.  What it does, and why:

* **Warm-up** first (lazy initialisation, autotuning and JIT builds are not timed).
* **Cache flush** before every call: a buffer at least twice the last-level cache
  (the GPU's L2, read from the device properties; the CPU's LLC from sysfs, the buffer
  capped at ``CPU_FLUSH_MAX_BYTES``) is overwritten, so no call profits from data the
  previous one left in cache.
* **Input rotation**: ``make_args(i)`` is called outside the timed region before each
  call, so callers can rotate input sets or write fresh data for every call.
* **CUDA**: after the flush the device is synchronised, so the GPU is idle when the
  start event is recorded and CUDA events on the current stream bracket the call,
  launch overhead and any host work inside it included (host work cannot hide behind
  queued GPU work).  The same call is also measured with a host clock up to a
  device-wide synchronisation (``wall_*`` fields): work that escapes the timed stream
  shows up as wall time the events did not see.
* **CUDA, host ahead** (``host_ahead=True``): no synchronisation between the flush and the
  call, so the host's work inside the call overlaps the flush and whatever ``make_args``
  queued, as in a model whose host runs ahead of its GPU: the events time the device's work
  unless the host falls behind.  No wall clock is kept (it would include the flush).
* **CUDA, gated** (``gate=Gate(device)``): after the flush a gate kernel
  (kernelwright/timing_gate.py, compiled with NVRTC) takes every warp slot of every SM; once
  all of it is resident the call is made and its end recorded, then the host opens the gate.
  The events see the call's device work alone, whatever the host's speed; no work the call
  sends to another stream can run before the gate opens (a GPU spin queued ahead of the call
  would leave the other SMs to such work, unseen), and a host clock from the opening to a
  device-wide synchronisation (``wall_*``) shows work that outlasts the timed stream.  The
  host's time inside the call is kept too (``host_*``): per call, the larger of it and the
  device time is what the call costs a caller that keeps the GPU fed (``pipelined_*``).  A
  call that waits on the device itself (a sync, a host copy) would wait on the closed gate:
  the gate opens by itself after ``gate_timeout_ms`` and the call is counted in
  ``gate_timeouts``; such a call has no pipelined cost other than its time from idle.
* **CPU**: the same loop with a monotonic host clock.
* **Stopping rule**: at least ``min_reps`` calls, then stop as soon as the standard
  error of the mean is below ``target_rse`` of the mean, or ``budget_s`` has been
  spent, or ``max_reps`` calls were made.  Given ``least_reps``, ``min_reps`` gives way
  to the budget once that many calls were made (level-1 68's 185 ms forward, timed so,
  read 1.000x eager in the harness, as it did from twenty).

The clock and event functions are bound when this module is imported, so code that is
timed later cannot replace them by monkeypatching ``time`` or ``torch.cuda.Event``.
"""

import math
import os
import time
from dataclasses import asdict, dataclass, field
from typing import Callable, List, Optional

import torch

from kernelwright.timing_gate import Gate, GateUnavailable

_perf_counter = time.perf_counter
_Event = torch.cuda.Event
_event_record = torch.cuda.Event.record
_event_elapsed = torch.cuda.Event.elapsed_time
_cuda_synchronize = torch.cuda.synchronize

__all__ = ["TimingResult", "Gate", "GateUnavailable", "time_fn", "merge", "spin_up", "flush_buffer_bytes",
           "summarize"]


@dataclass
class TimingResult:
    """Statistics of one timed function, in milliseconds."""

    median_ms: float
    mean_ms: float
    std_ms: float
    stderr_ms: float
    min_ms: float
    max_ms: float
    n: int
    clock: str
    stopped_by: str
    wall_median_ms: Optional[float] = None
    wall_mean_ms: Optional[float] = None
    # Median over calls of (wall - events): a difference of two medians would follow any
    # host stall that lengthens both clocks of some calls, which a per-call gap cancels.
    gap_median_ms: Optional[float] = None
    host_median_ms: Optional[float] = None
    pipelined_median_ms: Optional[float] = None
    gate_timeouts: int = 0
    samples_ms: List[float] = field(default_factory=list, repr=False)
    wall_samples_ms: List[float] = field(default_factory=list, repr=False)
    host_samples_ms: List[float] = field(default_factory=list, repr=False)

    @property
    def rse(self) -> float:
        """Relative standard error of the mean."""
        return self.stderr_ms / self.mean_ms if self.mean_ms > 0 else float("inf")

    def to_dict(self, samples: bool = False) -> dict:
        d = asdict(self)
        if not samples:
            d.pop("samples_ms")
            d.pop("wall_samples_ms")
            d.pop("host_samples_ms")
        d["rse"] = self.rse
        return d


def summarize(samples_ms: List[float]):
    """(median, mean, std, stderr) of a list of times."""
    n = len(samples_ms)
    s = sorted(samples_ms)
    median = s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])
    mean = sum(s) / n
    var = sum((x - mean) ** 2 for x in s) / (n - 1) if n > 1 else 0.0
    std = math.sqrt(var)
    return median, mean, std, std / math.sqrt(n)


# Virtual machines report a last-level cache of the whole host, or an invented one (480 MiB
# on a 2-core VM): a flush of twice that costs tens of milliseconds per timed call on the CPU.
# No core of a current server CPU caches more than 128 MiB of what it just touched.
CPU_FLUSH_MAX_BYTES = 256 << 20


def _cpu_llc_bytes() -> int:
    best = 0
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for entry in os.listdir(base):
            try:
                with open(os.path.join(base, entry, "size")) as f:
                    text = f.read().strip()
            except OSError:
                continue
            mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
            digits = text[:-1] if text[-1:] in "KMG" else text
            if digits.isdigit():
                best = max(best, int(digits) * mult)
    except OSError:
        pass
    return best


def l2_cache_bytes(device) -> int:
    """The L2 cache of CUDA ``device`` in bytes; 0 where torch does not report it."""
    return int(getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 0) or 0)


def flush_buffer_bytes(device) -> int:
    """Size of the cache-flush buffer: twice the last-level cache of ``device``."""
    device = torch.device(device)
    if device.type == "cuda":
        l2 = l2_cache_bytes(device)
        # Unknown L2: 128 MiB is twice the largest L2 shipped so far.
        return 2 * l2 if l2 > 0 else 128 << 20
    llc = _cpu_llc_bytes()
    return min(2 * llc, CPU_FLUSH_MAX_BYTES) if llc > 0 else 64 << 20


def _make_flush(device):
    buf = torch.empty(flush_buffer_bytes(device) // 4, dtype=torch.int32, device=device)
    counter = [0]

    def flush():
        # A different value each time: writing the same bytes could be elided by
        # compressed-memory hardware and would leave the cache warm.
        counter[0] = (counter[0] + 1) & 0x7FFFFFFF
        buf.fill_(counter[0])

    return flush


def time_fn(
    fn: Callable,
    make_args: Optional[Callable[[int], tuple]] = None,
    device="cuda",
    *,
    warmup: int = 3,
    warmup_ms: float = 50.0,
    min_reps: int = 10,
    least_reps: Optional[int] = None,
    max_reps: int = 1000,
    budget_s: float = 2.0,
    target_rse: float = 0.01,
    flush_cache: bool = True,
    after_call: Optional[Callable[[int, tuple, object], None]] = None,
    host_ahead: bool = False,
    gate: Optional[Gate] = None,
    gate_timeout_ms: float = 20.0,
) -> TimingResult:
    """Time ``fn(*make_args(i))`` on ``device`` ("cuda", "cuda:N" or "cpu").

    ``make_args(i)`` runs before call ``i`` outside the timed region (``None``: no
    arguments).  ``after_call(i, args, out)`` runs after call ``i`` has completed and
    been measured, also outside the timed region; the harness uses it to re-check a
    random subset of outputs.  Warm-up calls get negative ``i``.
    """
    device = torch.device(device)
    on_cuda = device.type == "cuda"
    if on_cuda and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    make_args = make_args or (lambda i: ())
    flush = _make_flush(device) if flush_cache else (lambda: None)

    gated = on_cuda and gate is not None
    if gated:
        start, end = _Event(enable_timing=True), _Event(enable_timing=True)

        def one_call(i):
            args = make_args(i)
            flush()
            gate.close(gate_timeout_ms)
            _event_record(start)
            t0 = _perf_counter()
            out = fn(*args)
            host = (_perf_counter() - t0) * 1e3
            _event_record(end)
            t1 = _perf_counter()
            gate.open()
            _cuda_synchronize(device)
            wall = (_perf_counter() - t1) * 1e3
            return _event_elapsed(start, end), wall, host, args, out

    elif on_cuda and host_ahead:
        start, end = _Event(enable_timing=True), _Event(enable_timing=True)

        def one_call(i):
            args = make_args(i)
            flush()
            _event_record(start)
            out = fn(*args)
            _event_record(end)
            _cuda_synchronize(device)
            return _event_elapsed(start, end), None, None, args, out

    elif on_cuda:
        start, end = _Event(enable_timing=True), _Event(enable_timing=True)

        def one_call(i):
            args = make_args(i)
            flush()
            _cuda_synchronize(device)
            t0 = _perf_counter()
            _event_record(start)
            out = fn(*args)
            _event_record(end)
            _cuda_synchronize(device)
            wall = (_perf_counter() - t0) * 1e3
            return _event_elapsed(start, end), wall, None, args, out

    else:

        def one_call(i):
            args = make_args(i)
            flush()
            t0 = _perf_counter()
            out = fn(*args)
            wall = (_perf_counter() - t0) * 1e3
            return wall, wall, None, args, out

    begin = _perf_counter()
    i = 0
    while True:
        i += 1
        one_call(-i)
        if i >= warmup and (_perf_counter() - begin) * 1e3 >= warmup_ms:
            break
        if _perf_counter() - begin > budget_s / 2:
            break

    samples: List[float] = []
    walls: List[float] = []
    hosts: List[float] = []
    timeouts = 0
    begin = _perf_counter()
    stopped_by = "max_reps"
    for i in range(max_reps):
        t, wall, host, args, out = one_call(i)
        samples.append(t)
        walls.append(wall)
        if gated:
            hosts.append(host)
            timeouts += gate.opened_by_timeout()
        if after_call is not None:
            # The caller's bookkeeping (copying a large output away) is not charged to the budget.
            t_after = _perf_counter()
            after_call(i, args, out)
            begin += _perf_counter() - t_after
        del args, out
        n = len(samples)
        if n < min_reps and (least_reps is None or n < least_reps or _perf_counter() - begin < budget_s):
            continue
        if _perf_counter() - begin >= budget_s:
            stopped_by = "budget"
            break
        if n % 5 == 0 or n == min_reps:
            _, mean, _, stderr = summarize(samples)
            if mean > 0 and stderr / mean < target_rse:
                stopped_by = "precision"
                break

    walled = gated or (on_cuda and not host_ahead)
    if not on_cuda:
        clock = "host"
    elif gated:
        clock = "cuda_event_gated"
    else:
        clock = "cuda_event_host_ahead" if host_ahead else "cuda_event"
    return _result(samples, walls if walled else [], hosts, clock, stopped_by, timeouts)


def _result(samples, walls, hosts, clock, stopped_by, gate_timeouts):
    median, mean, std, stderr = summarize(samples)
    wall_median = wall_mean = gap_median = host_median = pipelined = None
    if walls:
        wall_median, wall_mean, _, _ = summarize(walls)
        gap_median = summarize([w - t for w, t in zip(walls, samples)])[0]
    if hosts:
        host_median = summarize(hosts)[0]
        pipelined = summarize([max(h, d) for h, d in zip(hosts, samples)])[0]
    return TimingResult(
        median_ms=median, mean_ms=mean, std_ms=std, stderr_ms=stderr, min_ms=min(samples),
        max_ms=max(samples), n=len(samples), clock=clock, stopped_by=stopped_by,
        wall_median_ms=wall_median, wall_mean_ms=wall_mean, gap_median_ms=gap_median, host_median_ms=host_median,
        pipelined_median_ms=pipelined, gate_timeouts=gate_timeouts, samples_ms=samples,
        wall_samples_ms=walls, host_samples_ms=hosts)


def merge(parts: List[TimingResult]) -> TimingResult:
    """One result from several runs of the same function (e.g. interleaved rounds)."""
    return _result([x for p in parts for x in p.samples_ms], [x for p in parts for x in p.wall_samples_ms],
                   [x for p in parts for x in p.host_samples_ms], parts[0].clock,
                   "+".join(p.stopped_by for p in parts), sum(p.gate_timeouts for p in parts))


def spin_up(device, seconds: float = 0.3) -> None:
    """Keep ``device`` busy for a while so its clocks have ramped up before timing."""
    device = torch.device(device)
    if device.type != "cuda":
        return
    flush = _make_flush(device)
    end = _perf_counter() + seconds
    while _perf_counter() < end:
        for _ in range(8):
            flush()
        _cuda_synchronize(device)

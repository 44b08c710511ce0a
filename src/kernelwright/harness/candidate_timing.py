"""The candidate worker's timing: the rotation of timing inputs, the ceilings, the
interleaved rounds with their re-checked calls, and the checks on what the timed calls
leave behind (work outside the timed stream, side processes, threads).
"""

import os
import statistics
import time

from kernelwright.harness import proctree
from kernelwright.harness.plumbing import copy_tree, device_free_bytes, headroom, host_room, release, timing_sets

# Bound before the candidate is imported: it cannot replace what the worker calls.
_perf_counter = time.perf_counter


def _os_bits(k, _urandom=os.urandom):
    """``k`` random bits straight from the OS.  The candidate worker draws its timing scales
    and re-checked calls here rather than through ``random.SystemRandom``, whose methods and
    module internals (``random._urandom``) candidate code could replace to predict them."""
    return int.from_bytes(_urandom((k + 7) // 8), "little") >> (-k % 8)


def _os_uniform(a, b):
    return a + (b - a) * (_os_bits(53) / float(1 << 53))


def _os_sample(n, k):
    """``k`` distinct integers of ``range(n)``."""
    chosen = set()
    while len(chosen) < min(k, n):
        chosen.add(_os_bits(64) % n)
    return chosen


# Timed calls re-checked: three drawn in advance, at most two more at random; on a GPU, one
# more drawn among the calls of the device-time rounds.  Where the judge's references are
# slow (fit.rechecks_in_time) fewer are drawn in advance, and the random ones shrink alike.
DRAWN_RECHECKS = 3
MAX_RECHECKS = 5
# Rounds of gated (device-time) measurement, GPU only.
DEVICE_ROUNDS = 2
# The gate opens by itself after this many times the slower side's wall time from an idle GPU
# (plus GATE_TIMEOUT_PAD_MS): a call's host part never takes that long unless it waits on the
# device, which the closed gate would hold forever.
GATE_TIMEOUT_FACTOR = 3.0
GATE_TIMEOUT_PAD_MS = 5.0
# A wall-clock gap flagged by the rounds above is confirmed by this many rounds timing the
# one-element add, the reference and the candidate back to back, CONFIRM_CALLS calls each:
# a host stall that hits only the candidate's rounds (a suite's builds share the host) then
# hits all three of a round alike, and work outside the timed stream shows in every round.
CONFIRM_ROUNDS = 7
CONFIRM_CALLS = 3


# Calls a timing makes at the least, over its rounds, where min_reps calls would overrun its
# budget: min_reps of level-1 68's 185 ms forward cost its timing about 30 s; from these it
# read 1.000x eager, as before (H200, 2026-12-02).
LEAST_REPS = 6


def _reps_per_round(min_reps, rounds):
    return max(2, -(-min_reps // rounds))


def _least_per_round(min_reps, rounds):
    """Calls every round of a timing makes, however long they take."""
    return min(_reps_per_round(min_reps, rounds), _reps_per_round(LEAST_REPS, rounds))


class CandidateTiming:
    """The timing half of the candidate worker (candidate._Candidate), on its attributes."""

    def _room(self):
        """(bytes this worker may still allocate on its device, where that comes from).

        (None, None) on the CPU without a memory cap.
        """
        if self.device.type == "cuda":
            free, total = device_free_bytes(self.torch, self.device)
            return free - headroom(total), "device has %.1f GiB free" % (free / 2**30)
        room = host_room(self.job)
        if room is None:
            return None, None
        return room, "memory limit %d MiB" % int(self.job["memory_limit_mb"])

    def _rotation(self, per_set, n_max):
        """How many timing input sets fit, and whether their pristine copies stay on the host.

        Each rotating set needs a pristine copy and a working copy; on top of them come the
        output, a re-checked call's host copies and the cache-flush buffer.
        """
        out = max(self.out_bytes, 1)
        room, where = self._room()
        if room is None:
            return n_max, False, None
        room -= 2 * out + self.timing.flush_buffer_bytes(self.device)
        if self.device.type == "cpu":
            room -= per_set + out
        n = int(min(n_max, max(0, room // (2 * per_set))))
        if n >= n_max:
            return n_max, False, None
        if n >= 1:
            return n, False, "timing rotates %d input set(s), not %d: %.0f MiB per set, %s" % (
                n, n_max, per_set / 2**20, where)
        if self.device.type == "cuda" and room >= per_set:
            return 1, True, ("timing inputs refreshed from a pristine copy in host memory: "
                             "%.0f MiB per set, %s" % (per_set / 2**20, where))
        return 1, False, "timing rotates 1 input set with little room to spare: %.0f MiB per set, %s" % (
            per_set / 2**20, where)

    def _pool(self):
        """Timing inputs: the trial draws, rewritten with fresh values before every call.

        Returns ``make_args`` and a dict naming the set and the scale of its latest call.
        """
        inputs = self.inputs
        names = timing_sets([name for name, _ in self.sets])
        first = self._set(names[0])
        n, on_host, note = self._rotation(max(1, self.inputs.nbytes(first)), len(names))
        if note:
            self.notes.append(note)
        pristine = [first] + [self._set(name) for name in names[1:n]]
        work = [inputs.clone_tree(x) for x in pristine]
        if on_host:
            pristine = [inputs.to_device(x, "cpu") for x in pristine]
        del first
        drawn = {}

        def make_args(i, touched=False):
            """``touched``: the set and scale of the call before, a few elements changed."""
            if touched and drawn:
                k = names.index(drawn["set"])
                drawn["touch"] = [_os_bits(62), _os_uniform(1.5, 2.0)]
            else:
                k = i % len(work)
                drawn.update(set=names[k], scale=_os_uniform(0.75, 1.25), touch=None)
            x = inputs.rescale(pristine[k], work[k], drawn["scale"])
            if drawn["touch"]:
                inputs.touch(x, *drawn["touch"])
            return tuple(x)

        return make_args, drawn

    def ceilings(self, dtype):
        """The device's copy bandwidth and the fastest matrix rate a ``dtype`` problem may use
        at the float32 matmul precision in force (see roofline.py), in the memory free now,
        before the timing inputs are loaded; None where neither fits."""
        torch, timing, roofline = self.torch, self.timing, self.roofline
        self.chan.phase("ceilings")
        room, where = self._room()
        flush = timing.flush_buffer_bytes(self.device)
        copy = matrix = None
        try:
            with self.no_grad():
                timing.spin_up(self.device)
                copy = roofline.copy_ceiling(self.device, room, flush, timing.time_fn)
                matrix = roofline.matrix_ceiling(self.device, dtype, room, timing.time_fn)
        except (RuntimeError, MemoryError) as exc:  # out of memory included
            self.notes.append("ceilings not measured: %s: %s" % (type(exc).__name__, str(exc).split("\n")[0][:200]))
        else:
            if copy is None:
                self.notes.append("copy bandwidth not measured: two buffers of %.0f MiB do not fit (%s)" % (
                    flush / 2**20, where))
            if matrix is None:
                self.notes.append("%s matrix rate not measured: its matrices do not fit (%s)" % (dtype, where))
        release(torch, self.device)
        if copy is None and matrix is None:
            return None
        return dict(copy or {}, **(matrix or {}))

    def _time(self, fn, make_args, after_call=None, rounds=1, budget_s=None, gate_timeout_ms=None):
        """``gate_timeout_ms``: time behind the gate (see timing.py, ``gate``)."""
        t = self.job["timing"]
        gated = {} if gate_timeout_ms is None else dict(gate=self.gate, gate_timeout_ms=gate_timeout_ms)
        return self.timing.time_fn(
            fn, make_args, self.device, warmup=t["warmup"], warmup_ms=t["warmup_ms"],
            min_reps=_reps_per_round(t["min_reps"], rounds), least_reps=_least_per_round(t["min_reps"], rounds),
            max_reps=max(2, t["max_reps"] // rounds),
            budget_s=min(budget_s or t["budget_s"], t["budget_s"]) / rounds, target_rse=t["target_rse"],
            after_call=after_call, **gated)

    def timings(self):
        torch, timing = self.torch, self.timing
        make_args, drawn = self._pool()
        min_reps = self.job["timing"]["min_reps"]
        rounds = max(1, int(self.job["timing"]["rounds"]))
        guaranteed = rounds * _least_per_round(min_reps, rounds)  # calls every timing run makes
        drawn_rechecks = min(DRAWN_RECHECKS, self.drawn_rechecks)
        chosen = _os_sample(guaranteed, drawn_rechecks)
        rechecks = []
        state = {"calls": 0, "pending": None,
                 "extra": (MAX_RECHECKS - DRAWN_RECHECKS) * drawn_rechecks // DRAWN_RECHECKS}

        def make_checked_args(i):
            state["pending"] = None
            if i < 0:
                return make_args(i)
            # Which calls are re-checked is drawn from the OS, so it cannot be predicted.
            # The judge rebuilds the inputs from the set, the scale and the touch: a
            # candidate that writes to them cannot turn its own re-check into a false alarm.
            # Re-checked calls, and half the others, are touched: they repeat the call before
            # but for a few elements, which a cache keyed on sampled values does not see.
            n = state["calls"]
            state["calls"] += 1
            extra = n not in chosen and state["extra"] > 0 and _os_bits(53) < (1 << 53) // 50
            checked = n in chosen or extra
            args = make_args(i, touched=checked or _os_bits(1) == 1)
            if checked:
                # The judge's reference for this call runs on the same seed (set by name).
                self.inputs.seed_forward(self.job["init_seed"], drawn["set"])
                state["extra"] -= extra
                state["pending"] = dict(drawn, call=n)
            return args

        def after_call(i, args, out):
            self._check_output_types(out, "timed call %d" % i)
            if state["pending"] is not None:
                # Written out at once: at most one re-checked output is held in memory.
                out, samples = self.compare.sample_leaves(
                    copy_tree(out, torch, subclasses_only=True), self.job["recheck_sample_elements"],
                    _os_bits(62))
                out_cpu = {"output": copy_tree(out, torch, "cpu"), "samples": samples}
                path = self.exchange.save(out_cpu, "recheck%d.pt" % len(rechecks), self.dirs)
                rechecks.append(dict(state["pending"], output=path))
                state["pending"] = None
                del out_cpu

        results = {}
        with self.no_grad():
            timing.spin_up(self.device)
            if self.device.type == "cuda":
                self.chan.phase("timing baseline")
                tiny = torch.zeros(1, device=self.device)
                results["baseline"] = self._time(lambda: tiny.add_(1), None, budget_s=0.5)
            # Interleaved rounds: drift in clocks or co-tenants hits both sides alike. The order
            # flips every round, so neither side always runs second (timing torch.matmul against
            # itself with a fixed order gave 0.990-0.996x).
            parts = {"eager": [], "candidate": []}
            sides = [("eager", "eager reference", self.ref, make_args, None),
                     ("candidate", "candidate", self.cand, make_checked_args, after_call)]
            for r in range(rounds):
                for key, what, fn, make, after in (sides if r % 2 == 0 else sides[::-1]):
                    self.side_processes()
                    self.chan.phase("timing %s (round %d)" % (what, r + 1))
                    parts[key].append(self._time(fn, make, after, rounds=rounds))
            results["eager"] = timing.merge(parts["eager"])
            results["candidate"] = timing.merge(parts["candidate"])
            if self.device.type == "cuda":
                # The launch latency again: the host's speed can change within an evaluation.
                self.chan.phase("timing baseline (after the rounds)")
                results["baseline_end"] = self._time(lambda: tiny.add_(1), None, budget_s=0.5)
                # The device's time alone, and the host's beside it: each call made in full
                # behind the gate, so the host's speed (which differs between processes on a
                # shared host) drops out of the device time; the times above are what a caller
                # waiting on the result sees.
                gate_timeout = GATE_TIMEOUT_PAD_MS + GATE_TIMEOUT_FACTOR * max(
                    results[k].wall_median_ms or results[k].median_ms for k in ("eager", "candidate"))
                self.gate_timeout_ms = gate_timeout
                if self.gate is not None:
                    try:
                        self.chan.phase("timing baseline, gated")
                        results["baseline_gated"] = self._time(lambda: tiny.add_(1), None, budget_s=0.5,
                                                               gate_timeout_ms=gate_timeout)
                        # One call of these rounds is re-checked too, drawn like the others.
                        chosen.add(state["calls"] + _os_bits(64) % (
                            DEVICE_ROUNDS * _least_per_round(min_reps, DEVICE_ROUNDS)))
                        dev_parts = {"eager": [], "candidate": []}
                        for r in range(DEVICE_ROUNDS):
                            for key, what, fn, make, after in (sides if r % 2 == 0 else sides[::-1]):
                                self.side_processes()
                                self.chan.phase("timing %s, gated (round %d)" % (what, r + 1))
                                dev_parts[key].append(self._time(fn, make, after, rounds=DEVICE_ROUNDS,
                                                                 budget_s=self.job["timing"]["budget_s"] / 2,
                                                                 gate_timeout_ms=gate_timeout))
                        results["eager_device"] = timing.merge(dev_parts["eager"])
                        results["candidate_device"] = timing.merge(dev_parts["candidate"])
                    except timing.GateUnavailable as exc:
                        self.notes.append("device time not measured: %s" % exc)
                        for key in ("baseline_gated", "eager_device", "candidate_device"):
                            results.pop(key, None)
            if self.device.type == "cuda":
                self.escape_check(results, lambda gated: self._paired_gap_excess(
                    tiny, sides, self.gate_timeout_ms if gated else None))
            self._check_guard()
            self.chan.phase("kernel listing")
            try:
                args_list = [make_args(i) for i in range(3)]
                ref_names = ()
                if self.device.type == "cuda":
                    ref_names = self.kernels.cuda_kernel_names(self.ref, args_list, self.device)
                self.kernel_info = self.kernels.kernel_report(self.cand, args_list, self.device, ref_names)
            except Exception as exc:
                self.kernel_info = {"error": "%s: %s" % (type(exc).__name__, str(exc)[:300])}
            # Last point where candidate code ran; torch.compile below starts threads of its own.
            self._check_guard()
            self.new_threads()
            self.side_processes(final=True)
            compile_s = None
            if self.job.get("compile", True):
                self.chan.phase("torch.compile reference")
                try:
                    compiled = torch.compile(self.ref)
                    t0 = _perf_counter()
                    self._call(compiled, make_args(0))
                    compile_s = _perf_counter() - t0
                    self.chan.phase("timing torch.compile reference")
                    results["compile"] = self._time(compiled, make_args)
                    if "candidate_device" in results:
                        self.chan.phase("timing torch.compile reference, gated")
                        results["compile_device"] = self._time(compiled, make_args,
                                                               gate_timeout_ms=self.gate_timeout_ms)
                except Exception as exc:
                    self.notes.append("torch.compile reference failed: %s: %s" % (type(exc).__name__, str(exc)[:300]))
        return results, compile_s, rechecks

    def _paired_gap_excess(self, tiny, sides, gate_timeout_ms):
        """Per round of CONFIRM_ROUNDS, the candidate's median wall-clock gap less the larger of
        the add's and the reference's timed beside it (gated where ``gate_timeout_ms`` is set):
        the median over rounds, and every round's."""
        calls = [("add", lambda: tiny.add_(1), None, None)] + [(key, fn, make, after)
                                                              for key, _, fn, make, after in sides]
        gated = {} if gate_timeout_ms is None else dict(gate=self.gate, gate_timeout_ms=gate_timeout_ms)
        excess = []
        for r in range(CONFIRM_ROUNDS):
            gaps = {}
            for key, fn, make, after in (calls if r % 2 == 0 else calls[::-1]):
                self.chan.phase("confirming a wall-clock gap (round %d, %s)" % (r + 1, key))
                gaps[key] = self.timing.time_fn(
                    fn, make, self.device, warmup=1, warmup_ms=0.0, min_reps=CONFIRM_CALLS,
                    max_reps=CONFIRM_CALLS, after_call=after, **gated).gap_median_ms
            excess.append(gaps["candidate"] - max(gaps["add"], gaps["eager"]))
        return statistics.median(excess), excess

    def escape_check(self, results, confirm=None):
        """Work outside the timed stream: on the idle-GPU rounds and the gated ones, device
        work that outlasts the end event shows in the wall clock to a device-wide sync; work
        that ran before the gated rounds' start event (a copy engine is not held by the gate)
        shows as idle-GPU time the gated device and host times cannot account for.

        ``confirm(gated)`` re-times the three side by side (``_paired_gap_excess``) where a
        gap is found: only a gap those rounds show too is flagged.

        The wall clock's own share (launch and sync latency, host stalls) is the largest gap
        between wall and events of the calls that cannot escape, timed in the same rounds: a
        one-element add before and after them, and the eager reference."""
        for bases, key, where in ((("baseline", "baseline_end", "eager"), "candidate", ""),
                                  (("baseline_gated", "eager_device"), "candidate_device", "gated rounds: ")):
            cand = results.get(key)
            gaps = [results[b].gap_median_ms for b in bases if b in results and results[b].gap_median_ms is not None]
            if cand is None or cand.gap_median_ms is None or not gaps:
                continue
            excess = cand.gap_median_ms - max(gaps)
            limit = self._escape_limit(cand.wall_median_ms)
            if excess <= limit:
                continue
            found = "%sdevice-synchronised wall %.4f ms vs CUDA events %.4f ms (median gap %.4f ms; %.4f ms " \
                    "where nothing escapes)" % (where, cand.wall_median_ms, cand.median_ms, cand.gap_median_ms,
                                                max(gaps))
            if confirm is not None:
                paired, rounds = confirm(key == "candidate_device")
                found += "; side by side with the add and the reference, %.4f ms more in the median of %d " \
                         "rounds (%s)" % (paired, len(rounds), ", ".join("%.4f" % x for x in rounds))
                if paired <= limit:
                    self.notes.append("not flagged escaped_timed_stream: " + found)
                    continue
            self.flag("escaped_timed_stream", found)
            return
        base = results.get("baseline")

        def unaccounted(side):
            # From an idle GPU the events span the call's device work and the waits for its
            # host: at most the two measured behind the gate, plus the events' own latency.
            # None where the gated rounds timed nothing usable (the call waited on the device).
            gated = results.get(side + "_device")
            if base is None or gated is None or gated.gate_timeouts:
                return None
            return results[side].median_ms - (gated.median_ms + gated.host_median_ms + base.median_ms)

        cand_unaccounted = unaccounted("candidate")
        if cand_unaccounted is None:
            return
        idle, gated = results["candidate"], results["candidate_device"]
        allowed = max(0.0, unaccounted("eager") or 0.0)
        if cand_unaccounted - allowed > self._escape_limit(idle.median_ms):
            self.flag("escaped_timed_stream", "gated rounds: %.4f ms from an idle GPU, but %.4f ms of device "
                      "and %.4f ms of host time behind the gate" % (idle.median_ms, gated.median_ms,
                                                                    gated.host_median_ms))

    def _escape_limit(self, ms):
        return max(self.job["escape_abs_ms"], self.job["escape_rel"] * ms)

    def side_processes(self, final=False):
        """Processes started under this worker (it adopts their orphans, see proctree) that
        hold the GPU, or that left the worker's process group: between the timed sides, such
        a process can load the device while the reference runs and idle while the candidate
        does, and one still starting CUDA when timing ends shows no device file yet.  Checked
        before every timed side; the others, still running at the end, are reported."""
        pids = proctree.descendants(os.getpid())
        own_group = os.getpgrp()
        on_gpu = [p for p in pids if proctree.uses_gpu(p)]
        detached = [p for p in pids if proctree.process_group(p) not in (None, own_group)]
        rest = [p for p in pids if p not in on_gpu and p not in detached]
        for name, found in (("gpu_side_process", on_gpu), ("detached_process", detached),
                            ("child_process", rest if final else [])):
            if found:
                self.flag(name, "; ".join("pid %d: %s" % (p, proctree.command_line(p)) for p in found[:3]))

    def new_threads(self):
        now = self.anticheat.live_threads()
        extra = [name for ident, name in now.items() if ident not in self.threads_before]
        if extra:
            self.flag("background_thread", "threads still running: %s" % ", ".join(extra[:5]))

"""A group in its GEMM's epilogue timed against the two apart (``tune.measure`` calls it for each
candidate ``epilogues.Fusion``): kept only where the fused GEMM is correct and faster."""

import concurrent.futures
import os
import time
from dataclasses import dataclass
from typing import Optional

from . import anchors
from .timed import rel_error, time_in_turns

# How long measuring waits for a fused GEMM's kernel, from when its build starts. A program of a
# cached shape links in about 7 s on an H200 host; a new shape compiles for 30-40 s more, which
# alone would take a GEMM problem past a minute. Past the wait the GEMM and its group are kept
# apart and the build finishes in a process of its own, cached for the next run.
# KERNELWRIGHT_EPILOGUE_WAIT (seconds) sets it; "inf" waits for every build.
ENV_FUSION_WAIT = "KERNELWRIGHT_EPILOGUE_WAIT"
FUSION_WAIT_S = 20.0


def fusion_wait_s():
    """The seconds measuring waits for a fused kernel's build (FUSION_WAIT_S, or the environment's)."""
    value = os.environ.get(ENV_FUSION_WAIT)
    if value is None:
        return FUSION_WAIT_S
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    if not seconds >= 0:
        raise ValueError("%s must be a number of seconds (0 or more, or inf), not %r" % (ENV_FUSION_WAIT, value))
    return seconds


@dataclass
class FusionTiming:
    fused_ms: Optional[float]  # None where the fused GEMM failed or differed
    apart_ms: float  # the GEMM's best and the group's best, one after the other
    error: Optional[float] = None  # against the GEMM and the group run by ATen
    note: str = ""

    @property
    def kept(self):
        return self.fused_ms is not None and self.fused_ms < self.apart_ms


def measure_fusion(fusion, gemm_args, spec, twin, args, group, call, device, budget_s, tolerance, ahead=None):
    """The GEMM with the group in its epilogue against the GEMM's and the group's best apart;
    ``ahead``: (the build of its kernel (Fusion.build_ahead), when it began), waited on first,
    up to fusion_wait_s() from its start."""
    if call is None:  # a GEMM without stand-ins: nothing of ours to fuse into
        return FusionTiming(None, float("inf"), note="the GEMM was not timed")
    group_ms = group.kernel_ms if group.chosen is not None else group.aten_ms
    timing = FusionTiming(None, min([call.aten_ms] + list(call.options.values())) + group_ms)
    if ahead is not None:
        build, started = ahead
        try:
            build.result(timeout=max(0.0, started + fusion_wait_s() - time.monotonic()))
        except concurrent.futures.TimeoutError:
            timing.note = ("its kernel was still compiling %.0f s after its build began (a new GEMM shape: "
                           "30-60 s, once); kept apart, the build finishes and is cached for the next run"
                           % (time.monotonic() - started))
            return timing
        except (OSError, RuntimeError):  # the calls run apart, and the fusion is timed as that
            pass
    values = fusion.values(gemm_args, spec, args)
    cache = anchors.weight_cache() if fusion.held_weight else None
    run = lambda: fusion.call(values, cache)  # noqa: E731
    try:
        run()  # the first call of a program builds its kernel (once, cached) and runs apart
        got = run()
    except (RuntimeError, ValueError, TypeError) as error:
        timing.note = "the fused GEMM failed: %s" % str(error).splitlines()[0][:160]
        return timing
    want = twin(*args)
    timing.error = max(rel_error(g, w) for g, w in zip(got, want)) if len(got) == len(want) else float("inf")
    del got
    if not timing.error <= tolerance:
        timing.note = "the fused GEMM differs from ATen by %.3g" % timing.error
        return timing
    # Fused and apart (the GEMM's best, then the group's) timed in turns: the two are a few
    # percent apart, less than a GPU's clock drifts between timings taken minutes apart.
    apart = lambda: (call.run(*gemm_args), group.run(*args))  # noqa: E731
    timing.fused_ms, timing.apart_ms = time_in_turns([run, apart], device, budget_s)
    timing.note = "%.4f ms fused against %.4f ms apart" % (timing.fused_ms, timing.apart_ms)
    return timing

"""Measured choices: each generated kernel's launch variants against the ATen ops it
replaces, timed on the device in the same run; a group keeps its kernel only where the
kernel is correct, and faster or tied with ATen (see TIE).
"""

import copy
import functools
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional

import torch

from kernelwright.kernel.errors import KernelCompileError, KernelLaunchError, LaunchConfigError
from kernelwright.harness.inputs import to_float64

from . import anchors, fusion_timing, interpret, runtime
from .ir import Launch
from .timed import pipelined_timer, rel_error, time_in_turns, time_median, time_unless_hopeless

# How far a stand-in for an ATen call may be from ATen's own result: at 'highest' both are
# fp32-accurate; at 'high' and 'medium' each may round its operands differently.
_CALL_TOLERANCE = {"highest": 1e-5, "high": 2e-2, "medium": 2e-2}

# How much further from float64 than another correct result a result may be: rounding in
# another order, not another precision (a kernel against ATen's, a layout against the given one).
ERROR_RATIO = 2.0

# A generated kernel within this fraction of ATen's time ties it, and a tie keeps the kernel:
# the optimize issue asks for a generated kernel wherever a pointwise or reduction op runs
# outside a GEMM, and this trades up to 2% of a group's time for one. On H100 (2026-11-26
# records) single copy-bound ops at the copy rate measured 0.3-1.6% from ATen's; whether that
# is timing noise or a real difference was not measured. The emitted forward against Model's is
# held to the same band, where it runs at least one generated kernel.
TIE = 0.02

# What timing one model's kernels may take in all, at most: each timing (a group's ATen twin or
# one of its variants, a fused GEMM against the two apart) gets at most this over their number.
# An unrolled ODE solver of 106 groups (corpus 661) took over 140 s at a quarter second each;
# a few groups, as KernelBench's, keep the quarter second.
MEASURE_BUDGET_S = 30.0


def timing_budget(plan, fusions, budget_s):
    """Seconds each of the timings of ``plan``'s groups and ``fusions`` may take."""
    n = sum(1 + len(spec.variants) for spec in plan.specs.values()) + len(fusions)
    return min(budget_s, MEASURE_BUDGET_S / max(1, n))


def kernel_kept(kernel_ms, aten_ms):
    """Whether a correct generated kernel (or forward) of ``kernel_ms`` stands in for ATen's
    ``aten_ms``: faster, or a tie (within TIE)."""
    return kernel_ms <= aten_ms * (1.0 + TIE)


def keep_note(kernel_ms, aten_ms):
    """The report's word on a kept kernel that is not faster, or on one that lost; '' if faster."""
    if not kernel_kept(kernel_ms, aten_ms):
        return "ATen is faster (%.4f ms against %.4f ms)" % (aten_ms, kernel_ms)
    if kernel_ms >= aten_ms:
        return "a tie with ATen, kept (%.4f ms against %.4f ms, within %g%%)" % (kernel_ms, aten_ms, TIE * 100)
    return ""

@dataclass
class GroupTiming:
    aten_ms: float
    kernel_ms: Optional[float]  # the best variant's time; None where none was correct
    variants: Dict[str, float] = field(default_factory=dict)
    chosen: Optional[Launch] = None
    error: Optional[float] = None  # the kernel's relative error against its ATen twin
    note: str = ""
    failures: list = field(default_factory=list)  # variants that did not build, launch or match ATen
    timed_once: list = field(default_factory=list)  # variants left after one call (see timed.HOPELESS)
    refused: list = field(default_factory=list)  # variants whose grid or cluster the device cannot hold
    run: Optional[Callable] = None  # the chosen kernel, or the ATen twin where none is kept


@dataclass
class CallTiming:
    aten_ms: float
    options: Dict[str, float] = field(default_factory=dict)
    chosen: Optional[str] = None
    note: str = ""
    run: Optional[Callable] = None  # the chosen stand-in's call, or ATen's


def measure(plan, model, inputs, twins, device, budget_s=0.25, tolerance=1e-3, fusions=None):
    """({group id: GroupTiming}, {node name: CallTiming}, {group id: FusionTiming}): each
    group's kernel variants against its ATen twin, each ATen call's stand-ins against it, and
    each group that can run in a GEMM's epilogue (``fusions``: group id -> epilogues.Fusion)
    fused against both apart, timed on the values the model computes for ``inputs``."""
    groups, calls, fused = {}, {}, {}
    fusions = fusions or {}
    budget_s = timing_budget(plan, fusions, budget_s)
    gemm_args = {}  # the GEMMs of fusions: their operands, until their group runs
    ahead = {}  # group id -> the build of its fused kernel, started when its GEMM runs
    call_tolerance = _CALL_TOLERANCE.get(torch.get_float32_matmul_precision(), 1e-5)

    def on_group(g, args):
        groups[g.id] = _measure_group(plan.specs[g.id], twins[g.id], args, device, budget_s, tolerance)
        fusion = fusions.get(g.id)
        if fusion is not None and fusion.gemm in gemm_args:
            fused[g.id] = fusion_timing.measure_fusion(
                fusion, gemm_args.pop(fusion.gemm), plan.specs[g.id], twins[g.id], args, groups[g.id],
                calls.get(fusion.gemm.name), device, budget_s, call_tolerance, ahead.pop(g.id, None))

    def on_call(node, args, kwargs):
        # The fused kernel builds (seconds, or about 30 s for a new shape) while the GEMM and the group are timed.
        for gid, f in fusions.items():
            if f.gemm is node and torch.device(device).type == "cuda":
                try:
                    ahead[gid] = (f.build_ahead(args, anchors.weight_cache() if f.held_weight else None),
                                  time.monotonic())
                except (RuntimeError, ValueError, TypeError):
                    pass  # the fused call itself reports it
        options = anchors.alternatives(node, plan.captured.params)
        if options:
            calls[node.name] = _measure_call(node, options, args, kwargs, device, budget_s, call_tolerance)
        if any(f.gemm is node for f in fusions.values()):
            gemm_args[node] = args

    if torch.device(device).type == "cuda":
        index = torch.device(device).index
        runtime.compile_into_cache([(spec.name, spec.cuda_source(launch)) for spec in plan.specs.values()
                               for launch in spec.variants],
                              torch.cuda.current_device() if index is None else index)
    with torch.no_grad():
        interpret.run(plan, model, inputs, twins, on_group, on_call)
    for t in list(groups.values()) + list(calls.values()):
        t.run = None  # what the fusions were timed against holds kernels and weight conversions
    return groups, calls, fused


def _measure_call(node, options, args, kwargs, device, budget_s, tolerance):
    want = node.target(*args, **kwargs)
    aten = lambda *a: node.target(*a, **kwargs)  # noqa: E731
    timing = CallTiming(time_median(aten, args, device, budget_s), run=aten)
    best = timing.aten_ms
    for option in options:
        try:
            got = option.call(*args)
        except (RuntimeError, ValueError, TypeError) as error:  # a shape or build the library refuses
            timing.note = "%s: %s" % (option.label, str(error).splitlines()[0][:120])
            continue
        err = rel_error(got, want)
        del got
        if not err <= tolerance:
            timing.note = "%s differs from ATen by %.3g" % (option.label, err)
            continue
        ms, _ = time_unless_hopeless(option.call, args, device, budget_s, best)
        timing.options[option.label] = ms
        if ms < best:
            best, timing.chosen, timing.run = ms, option.label, option.call
    return timing


def _measure_group(spec, twin, args, device, budget_s, tolerance):
    want = twin(*args)
    timing = GroupTiming(time_median(twin, args, device, budget_s), None, run=twin)
    arbiter = None
    for launch in spec.variants:
        k = runtime.Kernel(spec.name, spec.cuda_source(launch), launch.grid, launch.block,
                           [(t.shape, t.stride, t.dtype) for t in spec.inputs],
                           [(t.shape, t.stride, t.dtype) for t in spec.outputs], twin,
                           workspace=launch.workspace, cooperative=launch.cooperative, strict=True,
                           shared=launch.shared)
        try:
            got = k(*args)
        except (KernelCompileError, KernelLaunchError, LaunchConfigError) as error:
            if isinstance(error, KernelLaunchError) and runtime.refused_shape(str(error)):
                # The device cannot hold this grid or cluster at once: a limit of the device,
                # not a fault of the kernel.
                timing.refused.append(launch.describe())
                continue
            # A generated kernel that does not build or launch is the generator's bug; the group
            # runs in ATen and the report says why.
            timing.failures.append("variant %s: %s" % (launch.describe(), str(error).splitlines()[0][:200]))
            continue
        err = max(rel_error(a, b) for a, b in zip(got, want))
        if not err <= tolerance:
            arbiter = arbiter or _Float64Arbiter(twin, args, want)
            against_aten, err = err, arbiter.accepts(got, tolerance)
            if err is None:
                timing.failures.append("variant %s wrong (error %.3g against ATen%s)" % (
                    launch.describe(), against_aten, arbiter.describe()))
                del got
                continue
        del got
        ms, full = time_unless_hopeless(k, args, device, budget_s, min(timing.aten_ms, timing.kernel_ms or timing.aten_ms))
        timing.variants[launch.describe()] = ms
        if not full:
            timing.timed_once.append(launch.describe())
            continue
        if timing.kernel_ms is None or ms < timing.kernel_ms:
            timing.kernel_ms, timing.chosen, timing.error, timing.run = ms, launch, err, k
    if timing.kernel_ms is not None:
        timing.note = keep_note(timing.kernel_ms, timing.aten_ms)
        if not kernel_kept(timing.kernel_ms, timing.aten_ms):
            timing.chosen, timing.run = None, twin
    if timing.failures:
        timing.note = "; ".join(filter(None, [timing.note] + timing.failures))
    return timing


class _Float64Arbiter:
    """Judges a kernel that disagrees with its ATen twin by both results' distance from the twin
    run in float64: where the output is small against what was summed to make it (a mean of
    values that cancel), float32 ATen is itself far from the exact result, and a kernel that
    accumulates in double can be closer to it than ATen is."""

    def __init__(self, twin, args, want):
        self.exact = self.aten_error = None
        try:
            exact = twin(*to_float64(list(args)))
        except (RuntimeError, TypeError):  # out of memory for doubles, or an op without float64
            return
        self.exact = exact
        self.aten_error = max(rel_error(w, e) for w, e in zip(want, exact))

    def accepts(self, got, tolerance):
        """The kernel's error against float64 where it is within ``tolerance`` or within
        ERROR_RATIO times ATen's own, else None."""
        if self.exact is None:
            return None
        err = max(rel_error(g, e) for g, e in zip(got, self.exact))
        return err if err <= max(tolerance, ERROR_RATIO * self.aten_error) else None

    def describe(self):
        return "" if self.exact is None else "; ATen itself %.3g from float64" % self.aten_error


def forwards_in_turns(modules, inputs, device, budget_s=0.5):
    """Each forward's median cost per call on the example inputs (``_pipelined_timer``), the
    forwards timed in turns, so that a clock drifting between timings weighs on all: Model's and
    ModelNew's, to check that what the measured choices add up to beats the model as the user
    runs it (ATen's composite ops, such as softmax, can be faster than the decomposition the
    kernels were measured against; a forward's launches cost host time that its kernels' timings
    hide); a layout's ModelNew against another's."""
    with torch.no_grad():
        return time_in_turns([functools.partial(m, *inputs) for m in modules], device, budget_s * len(modules),
                              timer=pipelined_timer(torch.device(device)))


def errors_vs_float64(forwards, model, inputs):
    """Each forward's largest relative L2 error over its outputs against ``model`` run in
    float64 on the same inputs; inf for all where ``model`` cannot run in float64: the run does
    not fit the device, or the forward casts to a float type of its own (``x.float()`` meeting
    float64 weights), as the harness's float64 reference cannot either."""
    with torch.no_grad():
        try:  # the float64 copy of the model lives for this statement alone
            want = _as_list(copy.deepcopy(model).double()(*to_float64(list(inputs))))
        except RuntimeError:  # torch.OutOfMemoryError among them
            return [float("inf")] * len(forwards)
        return [max(rel_error(g, w) for g, w in zip(_as_list(f(*inputs)), want)) for f in forwards]


def _as_list(out):
    return [out] if isinstance(out, torch.Tensor) else list(out)

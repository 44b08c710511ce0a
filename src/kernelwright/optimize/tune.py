"""Measured choices: each generated kernel's launch variants against the ATen ops it
replaces, timed on the device in the same run; a group keeps its kernel only where the
kernel is correct and faster.
"""

from dataclasses import dataclass, field
from typing import Dict, Optional

import torch

from kernelwright.timing import time_fn

from . import interpret, runtime
from .ir import Launch

COPY_BYTES = 1 << 28


@dataclass
class GroupTiming:
    aten_ms: float
    kernel_ms: Optional[float]  # the best variant's time; None where none was correct
    variants: Dict[str, float] = field(default_factory=dict)
    chosen: Optional[Launch] = None
    error: Optional[float] = None  # the kernel's relative error against its ATen twin
    note: str = ""


def copy_bandwidth(device):
    """Bytes per second of a large device copy (read + written), the memory ceiling."""
    src = torch.empty(COPY_BYTES // 4, device=device).uniform_(-1, 1)
    dst = torch.empty_like(src)
    r = time_fn(lambda: dst.copy_(src), device=device, budget_s=0.3, min_reps=10, host_ahead=True)
    return 2 * COPY_BYTES / (r.median_ms * 1e-3)


def _time(fn, args, device, budget_s):
    return time_fn(lambda: fn(*args), device=device, budget_s=budget_s, min_reps=10, warmup=2,
                   host_ahead=True).median_ms


def _rel_error(got, want):
    """Relative L2 error over the finite elements; inf where NaN or inf positions differ."""
    if got.shape != want.shape:
        return float("inf")
    if not want.is_floating_point():
        return float((got != want).sum())
    got, want = got.double(), want.double()
    special = ~torch.isfinite(want)
    if not torch.equal(special, ~torch.isfinite(got)) or not torch.equal(got[special].nan_to_num(), want[special].nan_to_num()):
        return float("inf")
    diff, scale = (got - want)[~special].norm(), want[~special].norm()
    return float(diff / scale) if scale > 0 else float(diff)


def measure(plan, model, inputs, twins, device, budget_s=0.25, tolerance=1e-3):
    """{group id: GroupTiming}, the kernels run on ``inputs`` as the model computes them."""
    env = {}
    kernels = {gid: twin for gid, twin in twins.items()}
    with torch.no_grad():
        interpret.run(plan, model, inputs, kernels, env)
        results = {}
        for g in plan.groups:
            spec = plan.specs[g.id]
            by_name = {n.name: n for n in g.inputs}
            args = [env[by_name[t.name]] for t in spec.inputs]
            want = twins[g.id](*args)
            aten_ms = _time(twins[g.id], args, device, budget_s)
            timing = GroupTiming(aten_ms, None)
            for launch in spec.variants:
                k = runtime.Kernel(spec.name, spec.cuda_source(launch), launch.grid, launch.block,
                                   [(t.shape, t.stride, t.dtype) for t in spec.inputs],
                                   [(t.shape, t.stride, t.dtype) for t in spec.outputs], twins[g.id])
                got = k(*args)
                torch.cuda.synchronize(device)
                err = max(_rel_error(a, b) for a, b in zip(got, want))
                if not err <= tolerance:
                    timing.note = "variant %s wrong (error %.3g against ATen)" % (launch.describe(), err)
                    continue
                ms = _time(k, args, device, budget_s)
                timing.variants[launch.describe()] = ms
                if timing.kernel_ms is None or ms < timing.kernel_ms:
                    timing.kernel_ms, timing.chosen, timing.error = ms, launch, err
            if timing.kernel_ms is not None and timing.kernel_ms >= aten_ms:
                timing.note = "ATen is faster (%.4f ms against %.4f ms)" % (aten_ms, timing.kernel_ms)
                timing.chosen = None
            results[g.id] = timing
    return results

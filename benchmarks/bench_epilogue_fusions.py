"""The optimizer's GEMM-epilogue candidates in given problems, timed as it times them, side by side.

For each problem file (KernelBench format) and each pointwise group the optimizer would put in its
GEMM's epilogue, on the model's own values at 'highest' (or --precision):

  fused   the GEMM with the group in its epilogue (kernelwright.ops.linear(..., epilogue=...),
          the weight's conversion kept as the emitted module keeps it)
  gemm    the same GEMM alone (bias added, weight kept)
  group   the group after it, as PyTorch runs it on the GEMM's result

timed in rounds (each call once a round, the median of each), with the GPU kernels of one call of
each from the profiler, so that a fused GEMM slower than apart shows where its time goes.

    python benchmarks/bench_epilogue_fusions.py KernelBench/level2/9_*.py KernelBench/level2/81_*.py \\
        --out benchmarks/results
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_gemm_options, heading, report, start_gemm_run, timed_in_rounds  # noqa: E402

import kernelwright.ops as K  # noqa: E402
from kernelwright.ops import epilogue as E  # noqa: E402
from kernelwright.optimize import anchors, api, capture, epilogues, interpret  # noqa: E402
from kernelwright.optimize import plan as planning  # noqa: E402

def fusion_values(path):
    """[(problem, fusion, values, group kernel, group args)] for each candidate of the problem at
    ``path``: the values its GEMM and group read when the model runs on its inputs."""
    module = api.load_module(path, "kw_bench_" + os.path.basename(path)[:-3])
    torch.manual_seed(0)
    model = module.Model(*module.get_init_inputs()).cuda()
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in module.get_inputs()]
    plan = planning.plan(capture.capture(model, inputs))
    fusions, _ = epilogues.candidates(plan)
    kernels = {g.id: interpret.torch_kernel(plan.specs[g.id]) for g in plan.groups}
    gemm_args, found = {}, []

    def on_call(node, args, kwargs):
        gemm_args[node] = args

    def on_group(g, args):
        f = fusions.get(g.id)
        if f is not None:
            values = f.values(gemm_args[f.gemm], plan.specs[g.id], args)
            found.append((os.path.basename(path)[:-3], f, values, kernels[g.id], list(args)))

    with torch.no_grad():
        interpret.run(plan, model, inputs, kernels, on_group, on_call)
    return found


def kernel_times(fn):
    """[(kernel name, ms)] of one call of ``fn``, from the profiler."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return [(e.name[:70], e.time_range.elapsed_us() / 1e3) for e in prof.events()
            if e.device_type == torch.autograd.DeviceType.CUDA]


def measure(problem, fusion, values, group, group_args, budget):
    a, b, bias = fusion.operands
    cache = anchors.weight_cache() if fusion.held_weight else None
    gemm_cache = K.WeightCache() if fusion.held_weight else None
    fns = {
        "fused": lambda: fusion.call(values, cache),
        "gemm": lambda: K.linear(values[a], values[b].t(), values[bias] if bias is not None else None,
                                 cache=gemm_cache),
        "group": lambda: group(*group_args),
    }
    with torch.no_grad():
        E.build([fusion.program])  # every variant, in parallel: whichever the shape picks is there
        for fn in fns.values():
            fn()
        ms = timed_in_rounds(fns, budget)
        kernels = {label: kernel_times(fn) for label, fn in fns.items() if label != "group"}
    return {"problem": problem, "group": fusion.group.name, "steps": fusion.program.steps, "ms": ms,
            "fused_over_apart": ms["fused"] / (ms["gemm"] + ms["group"]), "kernels": kernels}


def markdown(env, rows):
    lines = heading("The optimizer's GEMM-epilogue candidates, fused against apart", env, "; medians of five rounds") + [
        "| problem | group | steps | gemm ms | group ms | fused ms | fused / (gemm + group) | fused kernels (ms) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ms = r["ms"]
        kernels = "; ".join("%s %.4f" % (n, t) for n, t in r["kernels"]["fused"])
        lines.append("| %s | %s | %d | %.4f | %.4f | %.4f | %.3f | %s |" % (
            r["problem"], r["group"], r["steps"], ms["gemm"], ms["group"], ms["fused"], r["fused_over_apart"],
            kernels.replace("|", "/")))
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("problems", nargs="+", help="problem files (KernelBench format)")
    add_gemm_options(p, budget_help="seconds of timing per call")
    args = p.parse_args()
    env = start_gemm_run(args, "bench_epilogue_fusions.py")
    rows = []
    for path in args.problems:
        for found in fusion_values(path):
            rows.append(measure(*found, args.budget))
            r = rows[-1]
            print("%-40s %-12s fused %.4f ms, gemm %.4f + group %.4f: %.3f" % (
                r["problem"], r["group"], r["ms"]["fused"], r["ms"]["gemm"], r["ms"]["group"], r["fused_over_apart"]),
                flush=True)
    report(args.out, "epilogue_fusions", env, rows, markdown(env, rows))


if __name__ == "__main__":
    main()

"""Host time of an emitted ModelNew's forward against Model's, and where it goes.

    python benchmarks/bench_forward_host.py PROBLEM.py [PROBLEM.py ...] [--out benchmarks/results]

For each problem: Model on the GPU with the problem's inputs, optimized without measuring (every
group runs its generated kernel), both forwards timed behind the timing gate as the harness's
headline times them (host and device medians of 200 calls), ModelNew's once more with its
kernels launched through cuda-bindings instead of libcuda's entry points, and a profile of 300
ModelNew calls (the functions with the most host time of their own). A forward whose host time
exceeds its device time is host-bound: the harness then counts the host time.
"""

import argparse
import cProfile
import io
import json
import os
import pstats
import sys

import torch

from kernelwright import timing
from kernelwright.kernel import nvrtc
from kernelwright.optimize import api, driver

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import environment  # noqa: E402


def gated(fn, gate):
    r = timing.time_fn(fn, None, gate.device, min_reps=200, max_reps=200, budget_s=30, target_rse=0, gate=gate)
    return {"host_us": round(1e3 * r.host_median_ms, 2),
            "device_us": round(1e3 * r.median_ms, 2), "gate_timeouts": r.gate_timeouts}


def modelnew(path, model, inputs, device):
    with open(path) as f:
        source = f.read()
    optimized = api.optimize(model, inputs, problem_source=source, device=device, measure=False)
    return optimized.bind(model), optimized


def profile(fn, calls=300):
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    prof.disable()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(12)
    return text.getvalue()


def one(path, gate, device):
    model, inputs = driver._load_problem(path, 0, device)
    with torch.no_grad():
        new, optimized = modelnew(path, model, inputs, device)
        row = {"problem": os.path.basename(path), "kernels": len(optimized.plan.groups),
               "model": gated(lambda: model(*inputs), gate), "modelnew": gated(lambda: new(*inputs), gate)}
        direct = nvrtc.CudaKernel.direct_launcher
        nvrtc.CudaKernel.direct_launcher = lambda self, config, cooperative=False: None
        try:
            bound, _ = modelnew(path, model, inputs, device)
            row["modelnew_bindings_launch"] = gated(lambda: bound(*inputs), gate)
        finally:
            nvrtc.CudaKernel.direct_launcher = direct
        row["profile"] = profile(lambda: new(*inputs))
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems", nargs="+")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    device = torch.device("cuda")
    gate = timing.Gate(device)
    env = environment()
    rows = [one(p, gate, device) for p in args.problems]
    lines = ["# Emitted forwards' host time against Model's", "",
             "%s; torch %s; CUDA %s; %s. Medians of 200 calls behind the timing gate." % (
                 env["device"], env["torch"], env["cuda"], env["date"]), "",
             "| problem | kernels | Model host / device us | ModelNew host / device us | "
             "ModelNew, bindings launch, host us |", "|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %d | %.1f / %.1f | %.1f / %.1f | %.1f |" % (
            r["problem"], r["kernels"], r["model"]["host_us"], r["model"]["device_us"], r["modelnew"]["host_us"],
            r["modelnew"]["device_us"], r["modelnew_bindings_launch"]["host_us"]))
    text = "\n".join(lines) + "\n"
    print(text)
    for r in rows:
        print("## %s: ModelNew's own host time by function (300 calls)\n\n```\n%s```\n" % (r["problem"], r["profile"]))
    if args.out:
        stem = os.path.join(args.out, "forward_host_%s_%s" % (
            env["device"].lower().replace(" ", "-"), env["date"][:10]))
        with open(stem + ".json", "w") as f:
            json.dump({"environment": env, "rows": rows}, f, indent=2)
        with open(stem + ".md", "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()

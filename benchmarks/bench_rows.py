"""The row ops (softmax, layer_norm, rms_norm) at KernelBench level-1 sizes, forward and
backward, against eager PyTorch and torch.compile, as a fraction of the device copy bandwidth
measured in the same run, with each output's error against float64.

    python benchmarks/bench_rows.py [--out benchmarks/results] [--budget 0.6]

Traffic is the minimum an implementation must move: forward, the input read and the output
written once, plus the weight and bias read once; backward, the incoming gradient and the saved
tensor read once and the input's gradient written once, plus the parameters and their
gradients. CUDA events, warm-up, L2 flushed before every call, median of many calls.
"""

import argparse
import sys

import torch
import torch.nn.functional as F

import kernelwright.ops as K
from common import copy_bandwidth, environment, result_paths, write_json
from kernelwright.timing import time_fn

# name: (shape, dtype, kernelwright fn, torch fn, parameters (weight, bias),
#        (forward, backward) traffic in units of the input's size, and in units of a row's length)
CASES = {
    "softmax": ((4096, 393216), torch.float32, lambda x: K.softmax(x, 1), lambda x: torch.softmax(x, 1),
                0, (2, 3), (0, 0)),
    "softmax bf16": ((4096, 393216), torch.bfloat16, lambda x: K.softmax(x, 1), lambda x: torch.softmax(x, 1),
                     0, (2, 3), (0, 0)),
    "layer_norm": ((16, 64 * 256 * 256), torch.float32, lambda x, w, b: K.layer_norm(x, x.shape[1:], w, b),
                   lambda x, w, b: F.layer_norm(x, x.shape[1:], w, b), 2, (2, 3), (2, 3)),
    "rms_norm": ((16, 64 * 256 * 256), torch.float32, lambda x, w: K.rms_norm(x, x.shape[1:], w),
                 lambda x, w: F.rms_norm(x, x.shape[1:], w), 1, (2, 3), (1, 2)),
}
ERROR_ROWS = 16  # rows compared with float64, to keep the reference small


def _inputs(shape, dtype, n_params):
    x = torch.randn(shape, device="cuda", dtype=dtype) * 3 + 1.5
    params = [torch.randn(shape[1:], device="cuda", dtype=dtype) * 0.5 + (1.0 if i == 0 else 0.0)
              for i in range(n_params)]
    return [x] + params


def _error(fn, torch_fn, xs):
    """Largest |out - ref| / max|ref| over the first rows; ref: torch in float64."""
    head = [xs[0][:ERROR_ROWS]] + xs[1:]
    got = fn(*head).double()
    want = torch_fn(*[t.double() for t in head])
    return ((got - want).abs().max() / want.abs().max()).item()


def bench(name, copy_bw, budget):
    shape, dtype, ours, eager, n_params, units, len_units = CASES[name]
    xs = _inputs(shape, dtype, n_params)
    esize = xs[0].element_size()
    numel, length = shape[0] * shape[1], shape[1]
    impls = {"kernelwright": ours, "eager": eager, "compile": torch.compile(eager, dynamic=False)}
    rows = []
    for direction, u, lu in (("forward", units[0], len_units[0]), ("backward", units[1], len_units[1])):
        row = {"op": name, "dtype": str(dtype).split(".")[-1], "shape": list(shape), "direction": direction}
        nbytes = (u * numel + lu * length) * esize
        for label, fn in impls.items():
            if direction == "forward":
                t = time_fn(lambda: fn(*xs), device="cuda", budget_s=budget)
            else:
                leaves = [x.detach().requires_grad_() for x in xs]
                g = torch.randn(shape, device="cuda", dtype=dtype)

                def make(i, fn=fn, leaves=leaves, g=g):
                    return (fn(*leaves), leaves, g)

                t = time_fn(lambda y, ls, g: torch.autograd.grad(y, ls, g), make, device="cuda", budget_s=budget)
                del leaves, g
            row[label] = {"median_ms": t.median_ms, "rse": t.rse, "n": t.n,
                          "gbps": nbytes / (t.median_ms * 1e-3) / 1e9}
        if direction == "forward":
            row["error_vs_float64"] = {"kernelwright": _error(ours, eager, xs), "eager": _error(eager, eager, xs)}
        row["bytes"] = nbytes
        row["copy_gbps"] = copy_bw / 1e9
        row["fraction_of_copy"] = row["kernelwright"]["gbps"] * 1e9 / copy_bw
        for ref in ("eager", "compile"):
            row["speedup_vs_" + ref] = row[ref]["median_ms"] / row["kernelwright"]["median_ms"]
        print(_line(row), flush=True)
        rows.append(row)
        torch.cuda.empty_cache()
    return rows


def _line(row):
    k, e, c = (row[x]["median_ms"] for x in ("kernelwright", "eager", "compile"))
    err = row.get("error_vs_float64")
    tail = "  err %.1e (eager %.1e)" % (err["kernelwright"], err["eager"]) if err else ""
    return "%-13s %-8s %8.3f ms  eager %8.3f  compile %8.3f  %.2fx / %.2fx  %.3f of copy%s" % (
        row["op"], row["direction"], k, e, c, row["speedup_vs_eager"], row["speedup_vs_compile"],
        row["fraction_of_copy"], tail)


def _markdown(payload):
    env = payload["environment"]
    lines = ["# Row ops at KernelBench level-1 sizes", "",
             "%s, torch %s, CUDA %s, %s; copy bandwidth %.0f GB/s (measured in this run)." % (
                 env["device"], env["torch"], env["cuda"], env["date"], payload["copy_gbps"]), "",
             "| op | direction | shape | kernelwright ms | eager ms | compile ms | vs eager | vs compile |"
             " of copy BW | error vs float64 (eager's) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in payload["rows"]:
        err = r.get("error_vs_float64")
        lines.append("| %s | %s | %s | %.3f | %.3f | %.3f | %.2fx | %.2fx | %.3f | %s |" % (
            r["op"], r["direction"], "x".join(map(str, r["shape"])), r["kernelwright"]["median_ms"],
            r["eager"]["median_ms"], r["compile"]["median_ms"], r["speedup_vs_eager"], r["speedup_vs_compile"],
            r["fraction_of_copy"], "%.1e (%.1e)" % (err["kernelwright"], err["eager"]) if err else ""))
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="benchmarks/results")
    p.add_argument("--ops", default=",".join(CASES))
    p.add_argument("--budget", type=float, default=0.6, help="seconds of timing per measurement")
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        print("bench_rows: needs a CUDA device", file=sys.stderr)
        return 2
    env = environment()
    copy_bw, _ = copy_bandwidth(4096 * 393216 * 4)
    print("copy bandwidth over 6 GB: %.0f GB/s" % (copy_bw / 1e9), flush=True)
    payload = {"environment": env, "copy_gbps": copy_bw / 1e9, "rows": []}
    for name in args.ops.split(","):
        torch._dynamo.reset()
        payload["rows"] += bench(name, copy_bw, args.budget)
    json_path, md_path, _ = result_paths(args.out, "rows", env)
    write_json(json_path, payload)
    with open(md_path, "w") as f:
        f.write(_markdown(payload))
    print("wrote %s, %s" % (json_path, md_path))
    return 0


if __name__ == "__main__":
    sys.exit(main())

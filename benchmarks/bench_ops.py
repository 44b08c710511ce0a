"""Benchmarks every kernelwright op, forward and backward, against eager PyTorch and
torch.compile, with the device copy bandwidth measured in the same run as the ceiling.

    python benchmarks/bench_ops.py [--out benchmarks/results] [--configs large,bf16,small]

Large tensors: CUDA events, warm-up, L2 flushed before every call, median of many calls
(kernelwright.timing). Small tensors (16x16384): per-call time of back-to-back calls with the
host included, since there launch and dispatch overhead is the cost.
"""

import argparse
import sys

import torch
import torch.nn.functional as F

import kernelwright.ops as K
from common import copy_bandwidth, environment, per_call_host_inclusive, result_paths, write_json
from kernelwright.timing import summarize, time_fn

CONFIGS = {
    "large": ((4096, 393216), torch.float32),
    "bf16": ((4096, 393216), torch.bfloat16),
    "small": ((16, 16384), torch.float32),
}

# name: (kernelwright fn, torch fn, number of tensor inputs,
#        bytes moved per element forward, backward, in units of the element size)
OPS = {
    "elu": (lambda x: K.elu(x, 0.5), lambda x: F.elu(x, 0.5), 1, 2, 3),
    "sigmoid": (K.sigmoid, torch.sigmoid, 1, 2, 3),
    "square": (K.square, torch.square, 1, 2, 3),
    "mul": (K.mul, torch.mul, 2, 3, 5),
    "add": (lambda a, b: K.add(a, b, alpha=0.5), lambda a, b: torch.add(a, b, alpha=0.5), 2, 3, 2),
    "logsumexp": (lambda x: K.logsumexp(x, 1), lambda x: torch.logsumexp(x, 1), 1, 1, 2),
}


BWD_IDLE, BWD_AHEAD = "backward, idle GPU", "backward, host ahead"


def _inputs(shape, dtype, n):
    return [torch.randn(shape, device="cuda", dtype=dtype) for _ in range(n)]


def _peak_bytes(fn):
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    out = fn()
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    del out
    return peak


def _bench_large(name, impls, shape, dtype, copy_bw, budget):
    _, _, n_in, fwd_units, bwd_units = OPS[name]
    numel = shape[0] * shape[1]
    esize = torch.tensor([], dtype=dtype).element_size()
    xs = _inputs(shape, dtype, n_in)
    rows = []
    # A backward call is timed twice: from an idle GPU, where autograd's host work (hundreds of
    # microseconds on a slow host) delays the kernels, and with the host ahead of the GPU, as
    # in a training step, where that work overlaps the forward's kernels queued before it.
    for direction, units, host_ahead in (("forward", fwd_units, False), (BWD_IDLE, bwd_units, False),
                                         (BWD_AHEAD, bwd_units, True)):
        row = {"op": name, "dtype": str(dtype).split(".")[-1], "shape": list(shape), "direction": direction}
        nbytes = units * numel * esize
        for label, fn in impls.items():
            if direction == "forward":
                t = time_fn(lambda: fn(*xs), device="cuda", budget_s=budget)
                peak = _peak_bytes(lambda: fn(*xs))
            else:
                leaves = [x.detach().requires_grad_() for x in xs]
                g_shape = (shape[0],) if name == "logsumexp" else shape
                g = torch.randn(g_shape, device="cuda", dtype=dtype)

                def make(i, fn=fn, leaves=leaves, g=g):
                    return (fn(*leaves), leaves, g)

                t = time_fn(lambda y, ls, g: torch.autograd.grad(y, ls, g), make, device="cuda", budget_s=budget,
                            host_ahead=host_ahead)
                y = fn(*leaves)
                peak = _peak_bytes(lambda: torch.autograd.grad(y, leaves, g))
                del y, leaves, g
            row[label] = {"median_ms": t.median_ms, "rse": t.rse, "n": t.n, "peak_bytes": peak,
                          "gbps": nbytes / (t.median_ms * 1e-3) / 1e9}
        row["bytes"] = nbytes
        row["copy_gbps"] = copy_bw / 1e9
        row["fraction_of_copy"] = row["kernelwright"]["gbps"] * 1e9 / copy_bw
        for ref in ("eager", "compile"):
            row["speedup_vs_" + ref] = row[ref]["median_ms"] / row["kernelwright"]["median_ms"]
        if name == "logsumexp" and direction == "forward":
            read_once_ms = numel * esize / copy_bw * 1e3
            row["time_over_read_once"] = row["kernelwright"]["median_ms"] / read_once_ms
        print(_line(row), flush=True)
        rows.append(row)
    return rows


def _bench_small(name, impls, shape, dtype):
    _, _, n_in, _, _ = OPS[name]
    xs = _inputs(shape, dtype, n_in)
    leaves = [x.detach().requires_grad_() for x in xs]
    g = torch.randn((shape[0],) if name == "logsumexp" else shape, device="cuda", dtype=dtype)
    rows = []
    for direction in ("forward", "forward+backward"):
        row = {"op": name, "dtype": str(dtype).split(".")[-1], "shape": list(shape), "direction": direction,
               "clock": "per call, host included"}
        if direction == "forward":
            calls = {label: (lambda fn=fn: fn(*xs)) for label, fn in impls.items()}
        else:
            calls = {label: (lambda fn=fn: torch.autograd.grad(fn(*leaves), leaves, g)) for label, fn in impls.items()}
        per_repeat = per_call_host_inclusive(calls)
        for label, ms in per_repeat.items():
            row[label] = {"median_ms": summarize(ms)[0], "per_repeat_ms": ms}
        for ref in ("eager", "compile"):
            row["speedup_vs_" + ref] = row[ref]["median_ms"] / row["kernelwright"]["median_ms"]
        # Differences within a repeat, where both sides saw the same host, then their median.
        diffs = [(k - e) * 1e3 for k, e in zip(per_repeat["kernelwright"], per_repeat["eager"])]
        row["us_over_eager"] = summarize(diffs)[0]
        row["us_over_eager_quartiles"] = [sorted(diffs)[len(diffs) // 4], sorted(diffs)[(3 * len(diffs)) // 4]]
        print(_line(row), flush=True)
        rows.append(row)
    return rows


def _line(row):
    k, e, c = (row[x]["median_ms"] for x in ("kernelwright", "eager", "compile"))
    extra = ""
    if "fraction_of_copy" in row:
        extra = "  %5.0f GB/s  %.3f of copy" % (row["kernelwright"]["gbps"], row["fraction_of_copy"])
    if "us_over_eager" in row:
        extra = "  %+.2f us vs eager (quartiles %+.2f, %+.2f)" % (
            (row["us_over_eager"],) + tuple(row["us_over_eager_quartiles"]))
    return "%-10s %-9s %-16s %-17s kw %8.4f  eager %8.4f  compile %8.4f ms  x%.3f eager  x%.3f compile%s" % (
        row["op"], row["dtype"], "x".join(map(str, row["shape"])), row["direction"], k, e, c,
        row["speedup_vs_eager"], row["speedup_vs_compile"], extra)


def _markdown(payload):
    env = payload["environment"]
    lines = [
        "# kernelwright ops vs eager PyTorch and torch.compile",
        "",
        "%s, torch %s, CUDA %s, %s. Copy bandwidth measured in this run: %s." % (
            env["device"], env["torch"], env["cuda"], env["date"],
            ", ".join("%.0f GB/s (%s)" % (v / 1e9, k) for k, v in payload["copy_bandwidth"].items())),
        "",
        "Large tensors: median of CUDA-event timings, L2 flushed before each call. Small tensors: "
        "per-call time of back-to-back calls, host included, the implementations interleaved. "
        "Backward = torch.autograd.grad of the op's output, timed from an idle GPU (autograd's host work "
        "delays the kernels) and with the forward's kernels and the flush queued before it (the host "
        "runs ahead, as in a training step: the kernels' own time).",
        "",
        "| op | dtype | shape | direction | kernelwright ms | eager ms | compile ms | vs eager | vs compile | GB/s | of copy BW | peak mem vs eager |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in payload["rows"]:
        k = r["kernelwright"]
        gbps = "%.0f" % k["gbps"] if "gbps" in k else ""
        frac = "%.3f" % r["fraction_of_copy"] if "fraction_of_copy" in r else ""
        mem = ""
        if "peak_bytes" in k and r["eager"]["peak_bytes"]:
            mem = "%.2f" % (k["peak_bytes"] / r["eager"]["peak_bytes"])
        lines.append("| %s | %s | %s | %s | %.4f | %.4f | %.4f | %.3f | %.3f | %s | %s | %s |" % (
            r["op"], r["dtype"], "x".join(map(str, r["shape"])), r["direction"], k["median_ms"],
            r["eager"]["median_ms"], r["compile"]["median_ms"], r["speedup_vs_eager"],
            r["speedup_vs_compile"], gbps, frac, mem))
    small = [r for r in payload["rows"] if "us_over_eager" in r]
    if small:
        lines += ["", "Small tensors, kernelwright's per-call time minus eager's, median over repeats of the "
                  "difference within a repeat (quartiles): " + ", ".join(
                      "%s %s %+.2f µs (%+.2f, %+.2f)" % ((r["op"], r["direction"], r["us_over_eager"]) +
                                                        tuple(r["us_over_eager_quartiles"])) for r in small)]
    lse = [r for r in payload["rows"] if "time_over_read_once" in r]
    if lse:
        lines += ["", "logsumexp time over the time to read its input once at the measured copy bandwidth: " +
                  ", ".join("%.3f (%s)" % (r["time_over_read_once"], r["dtype"]) for r in lse)]
    return "\n".join(lines) + "\n"


def _plot(payload, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in payload["rows"] if "fraction_of_copy" in r]
    if not rows:
        return
    short = {"forward": "fwd", BWD_IDLE: "bwd idle", BWD_AHEAD: "bwd ahead"}
    labels = ["%s %s\n%s" % (r["op"], short[r["direction"]], r["dtype"]) for r in rows]
    fig, ax = plt.subplots(figsize=(max(8, len(rows) * 0.7), 4.5))
    width = 0.27
    for i, impl in enumerate(("kernelwright", "eager", "compile")):
        vals = [r[impl]["gbps"] * 1e9 / (r["copy_gbps"] * 1e9) for r in rows]
        ax.bar([j + (i - 1) * width for j in range(len(rows))], vals, width, label=impl)
    ax.axhline(1.0, color="k", lw=0.8, ls="--")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_ylabel("achieved / copy bandwidth")
    ax.set_title("%s, %s" % (payload["environment"]["device"], payload["environment"]["date"]))
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="benchmarks/results")
    p.add_argument("--configs", default="large,bf16,small")
    p.add_argument("--ops", default=",".join(OPS))
    p.add_argument("--budget", type=float, default=0.6, help="seconds of timing per measurement")
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        print("bench_ops: needs a CUDA device", file=sys.stderr)
        return 2
    env = environment()
    payload = {"environment": env, "copy_bandwidth": {}, "rows": []}
    for cname in args.configs.split(","):
        shape, dtype = CONFIGS[cname]
        copy_bw = None
        if cname != "small":
            nbytes = shape[0] * shape[1] * torch.tensor([], dtype=dtype).element_size()
            copy_bw, _ = copy_bandwidth(nbytes)
            payload["copy_bandwidth"]["%d MB" % (nbytes >> 20)] = copy_bw
            print("copy bandwidth over %d MB: %.0f GB/s" % (nbytes >> 20, copy_bw / 1e9), flush=True)
        for name in args.ops.split(","):
            ours, eager = OPS[name][0], OPS[name][1]
            torch._dynamo.reset()
            impls = {"kernelwright": ours, "eager": eager, "compile": torch.compile(eager, dynamic=False)}
            if copy_bw is None:
                payload["rows"] += _bench_small(name, impls, shape, dtype)
            else:
                payload["rows"] += _bench_large(name, impls, shape, dtype, copy_bw, args.budget)
            torch.cuda.empty_cache()
    json_path, md_path, png_path = result_paths(args.out, "ops", env)
    write_json(json_path, payload)
    with open(md_path, "w") as f:
        f.write(_markdown(payload))
    _plot(payload, png_path)
    print("wrote %s, %s, %s" % (json_path, md_path, png_path))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A GEMM whose rows are reduced in its epilogue against the same reduction after it.

For each shape and (chain, reduction), on the same float32 operands (a Linear's weight kept
converted between calls, as the optimizer emits it):

  gemm      kernelwright.ops.linear alone (bias added): the floor
  fused     kernelwright.ops.linear(..., epilogue=chain, reduce=r): each output tile reduces its
            rows in the epilogue, one small reduction finishes the partials; the [m, n] result
            is never written
  apart     kernelwright.ops.linear(..., epilogue=chain), then torch's reduction of its [m, n]
  eager     the whole model as PyTorch runs it (cuBLAS, the chain, the reduction)
  compiled  the whole model through torch.compile

The pairs are level 2's: a Linear then a sum (14, 56), a max (80), a mean (51). Times are
medians of CUDA-event timings with the L2 flushed, each the median of five rounds in which
every call of the row is timed once. Error is the relative norm against the float64 model.

    python benchmarks/bench_gemm_reduce.py --out benchmarks/results
"""

import argparse
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_gemm_options, heading, rel_err, report, start_gemm_run, timed_in_rounds  # noqa: E402

import kernelwright.ops as K  # noqa: E402
from kernelwright.ops import _epilogue_kernels  # noqa: E402
from kernelwright.ops import epilogue as E  # noqa: E402
from kernelwright.ops._common import ext  # noqa: E402

# name -> (chain(ns, y), reduction), the chain written once for the epilogue (ns = E) and torch.
CASES = {
    "scale_sum": (lambda ns, y: y * 0.5, "sum"),
    "sigmoid_sum": (lambda ns, y: ns.sigmoid(y), "sum"),
    "max": (lambda ns, y: y, "amax"),
    "gelu_mean": (lambda ns, y: ns.gelu(y), "mean"),
    "clamp_logsumexp": (lambda ns, y: ns.clamp(y * 2.0, -10.0, 10.0), "logsumexp"),
}
TORCH = type("TorchChain", (), {"sigmoid": staticmethod(torch.sigmoid), "gelu": staticmethod(F.gelu),
                                "clamp": staticmethod(torch.clamp)})
REDUCE = {"sum": torch.sum, "mean": torch.mean, "amax": torch.amax, "logsumexp": torch.logsumexp}


def prepare(shape, case):
    """(row, fns, want) of a shape and case: the calls to time and the float64 answer."""
    m, k, n = shape
    g = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(m, k, device="cuda", generator=g)
    w = torch.randn(n, k, device="cuda", generator=g) / k ** 0.5
    b = torch.randn(n, device="cuda", generator=g)
    chain, reduce = CASES[case]
    cache = K.WeightCache()
    program = E.compile(lambda y: chain(E, y))
    model = lambda: REDUCE[reduce](chain(TORCH, F.linear(x, w, b)), -1)  # noqa: E731
    fns = {
        "gemm": lambda: K.linear(x, w, b, cache=cache),
        "fused": lambda: K.linear(x, w, b, cache=cache, epilogue=program, reduce=reduce),
        "apart": lambda: REDUCE[reduce](K.linear(x, w, b, cache=cache, epilogue=program), -1),
        "eager": model,
        "compiled": torch.compile(model),
    }
    want = REDUCE[reduce](chain(TORCH, F.linear(x.double(), w.double(), b.double())), -1)
    # The op's rows to reduce: one partial per 128 columns where the epilogue reduced them.
    partials = lambda: torch.ops.kernelwright.linear_program(  # noqa: E731
        x, w, b, program.code, program.consts, [], [], [], *cache.parts(w), _epilogue_kernels.REDUCE_CODES[reduce])
    row = {"shape": "%dx%dx%d" % shape, "case": case, "reduce": reduce, "ms": {}, "error": {}}
    return row, fns, want, lambda: partials().shape[1] == math.ceil(n / 128)


def run(row, fns, want, in_epilogue, budget):
    with torch.no_grad():
        row["in_epilogue"] = in_epilogue()
        for label, fn in fns.items():
            if label != "gemm":
                row["error"][label] = rel_err(fn(), want)
        row["ms"] = timed_in_rounds(fns, budget)
    return row


def markdown(env, rows):
    lines = heading("GEMM rows reduced in the epilogue against the reduction after the GEMM", env) + [
        "| shape (m x k x n) | case | in epilogue | gemm ms | fused ms | fused / gemm | apart / fused | "
        "eager / fused | compiled / fused | error fused | error eager | error compiled |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ms, fused, err = r["ms"], r["ms"]["fused"], r["error"]
        lines.append("| %s | %s | %s | %.4f | %.4f | %.3f | %.3fx | %.3fx | %.3fx | %.2e | %.2e | %.2e |" % (
            r["shape"], r["case"], "yes" if r["in_epilogue"] else "no", ms["gemm"], fused, fused / ms["gemm"],
            ms["apart"] / fused, ms["eager"] / fused, ms["compiled"] / fused, err["fused"], err["eager"],
            err["compiled"]))
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", default=",".join(CASES))
    add_gemm_options(p, shapes="1024x8192x8192,128x8192x8192")
    args = p.parse_args()
    env = start_gemm_run(args, "bench_gemm_reduce.py")
    cases = args.cases.split(",")
    prepared = [prepare(tuple(int(v) for v in spec.split("x")), case)
                for spec in args.shapes.split(",") for case in cases]
    # Every kernel the calls will run, built at once, in parallel, before any is timed.
    with torch.no_grad():
        _epilogue_kernels.build_ahead(lambda: [f() for _, fns, _, _ in prepared for f in (fns["fused"], fns["apart"])],
                                      ext).result()
    rows = []
    for row, fns, want, in_epilogue in prepared:
        rows.append(run(row, fns, want, in_epilogue, args.budget))
        r = rows[-1]
        print("%-16s %-12s fused %.4f ms, gemm %.4f, apart %.4f, eager %.4f, compiled %.4f (in epilogue: %s)" % (
            r["shape"], r["case"], r["ms"]["fused"], r["ms"]["gemm"], r["ms"]["apart"], r["ms"]["eager"],
            r["ms"]["compiled"], r["in_epilogue"]), flush=True)
    report(args.out, "gemm_reduce", env, rows, markdown(env, rows))


if __name__ == "__main__":
    main()

"""A pointwise chain in the GEMM's epilogue against the same chain after it.

For each shape and chain, on the same float32 operands (a Linear's weight kept converted between
calls, as the optimizer emits it):

  gemm            kernelwright.ops.linear alone (bias added): the epilogue's floor
  apart           that GEMM, then the chain as PyTorch runs it (one kernel per op)
  apart_compiled  that GEMM, then the chain compiled by torch.compile (one fused kernel)
  fused           kernelwright.ops.linear(..., epilogue=chain): the chain in the GEMM's epilogue
  eager           the whole model as PyTorch runs it (cuBLAS, then the chain)
  compiled        the whole model through torch.compile

Chains run from one step to the longest the optimizer emits for KernelBench level 2 (a swish,
divide, clamp, tanh, clamp of problem 81), a transformer's residual add and gate, which read a
second tensor of the output's size beside the GEMM's result, and a FiLM layer's and a GRU's
interpolation, which read two. Times are medians of CUDA-event timings with the L2
flushed, each the median of five rounds in which every call of the row is timed once; each row's
ratios are against times measured in the same run. Error is the relative
Frobenius norm against the float64 model.

    python benchmarks/bench_gemm_epilogue.py --out benchmarks/results
    python benchmarks/bench_gemm_epilogue.py --shapes 1024x8192x8192 --precision high
"""

import argparse
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_gemm_options, heading, rel_err, report, start_gemm_run, timed_in_rounds  # noqa: E402

import kernelwright.ops as K  # noqa: E402
from kernelwright.ops import epilogue as E  # noqa: E402

# name -> chain(ns, y, scale, r, g), written once for kernelwright's epilogue (ns = E) and
# PyTorch (ns = the torch namespace below); scale is a per-column vector, r and g tensors of the
# output's shape.
CHAINS = {
    "relu": lambda ns, y, s, r, g: ns.relu(y),
    "scale_residual_clamp": lambda ns, y, s, r, g: ns.clamp(y * 0.5 + y, -1.0, 1.0),
    "column_gelu": lambda ns, y, s, r, g: ns.gelu(y * ns.column(s)),
    "swish_divide_clamp_tanh_clamp": lambda ns, y, s, r, g: ns.clamp(
        ns.tanh(ns.clamp(y * ns.sigmoid(y) / 2.0, -1.0, 1.0)), -1.0, 1.0),
    "mish_mish": lambda ns, y, s, r, g: ns.mish(ns.mish(y)),
    "residual_add": lambda ns, y, s, r, g: y + ns.full(r),
    "sigmoid_gate": lambda ns, y, s, r, g: y * ns.sigmoid(ns.full(r)),
    "film": lambda ns, y, s, r, g: y * ns.full(r) + ns.full(g),
    "gru_interpolation": lambda ns, y, s, r, g: ns.full(g) + ns.sigmoid(y) * (ns.full(r) - ns.full(g)),
}

TORCH = type("TorchChain", (), {
    "relu": staticmethod(torch.relu), "gelu": staticmethod(F.gelu), "sigmoid": staticmethod(torch.sigmoid),
    "tanh": staticmethod(torch.tanh), "clamp": staticmethod(torch.clamp), "mish": staticmethod(F.mish),
    "column": staticmethod(lambda t: t), "full": staticmethod(lambda t: t)})


def run(shape, chain_name, budget):
    m, k, n = shape
    g = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(m, k, device="cuda", generator=g)
    w = torch.randn(n, k, device="cuda", generator=g) / k ** 0.5
    b = torch.randn(n, device="cuda", generator=g)
    s = torch.randn(n, device="cuda", generator=g)
    r = torch.randn(m, n, device="cuda", generator=g)
    r2 = torch.randn(m, n, device="cuda", generator=g)
    chain = CHAINS[chain_name]
    cache = K.WeightCache()
    torch_chain = torch.compile(lambda y: chain(TORCH, y, s, r, r2))
    # Compiled once and bound to its operands, as the optimizer's modules hold it: compiling the
    # expression on every call costs host time that a short GEMM shows.
    program = E.compile(lambda y: chain(E, y, 0, 0, 1)).bind(columns=[s], fulls=[r, r2])
    model = lambda: chain(TORCH, F.linear(x, w, b), s, r, r2)  # noqa: E731
    compiled_model = torch.compile(model)
    fns = {
        "gemm": lambda: K.linear(x, w, b, cache=cache),
        "apart": lambda: chain(TORCH, K.linear(x, w, b, cache=cache), s, r, r2),
        "apart_compiled": lambda: torch_chain(K.linear(x, w, b, cache=cache)),
        "fused": lambda: K.linear(x, w, b, cache=cache, epilogue=program),
        "eager": model,
        "compiled": compiled_model,
    }
    want = chain(TORCH, F.linear(x.double(), w.double(), b.double()), s.double(), r.double(), r2.double())
    row = {"shape": "%dx%dx%d" % shape, "chain": chain_name, "steps": program.steps, "ms": {}, "error": {}}
    with torch.no_grad():
        for label, fn in fns.items():
            row["error"][label] = rel_err(fn(), want)
        row["ms"] = timed_in_rounds(fns, budget)
    del want
    return row


def markdown(env, rows):
    lines = heading("GEMM epilogue: a chain fused into kernelwright's GEMM against it after the GEMM", env) + [
        "| shape (m x k x n) | chain | steps | gemm ms | fused ms | fused / gemm | apart / fused | "
        "apart compiled / fused | eager / fused | compiled / fused | error fused | error eager |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ms, fused = r["ms"], r["ms"]["fused"]
        lines.append("| %s | %s | %d | %.4f | %.4f | %.3f | %.3fx | %.3fx | %.3fx | %.3fx | %.2e | %.2e |" % (
            r["shape"], r["chain"], r["steps"], ms["gemm"], fused, fused / ms["gemm"], ms["apart"] / fused,
            ms["apart_compiled"] / fused, ms["eager"] / fused, ms["compiled"] / fused, r["error"]["fused"],
            r["error"]["eager"]))
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--chains", default=",".join(CHAINS))
    add_gemm_options(p, shapes="1024x8192x8192,128x8192x8192,512x4096x4096")
    args = p.parse_args()
    env = start_gemm_run(args, "bench_gemm_epilogue.py")
    chains = args.chains.split(",")
    # Each chain's kernels, compiled (in parallel) before any is timed: a first call builds its
    # program's kernel and runs apart meanwhile.
    E.build([lambda y, c=c: CHAINS[c](E, y, 0, 0, 1) for c in chains])
    rows = []
    for spec in args.shapes.split(","):
        shape = tuple(int(v) for v in spec.split("x"))
        for chain in chains:
            rows.append(run(shape, chain, args.budget))
            r = rows[-1]
            print("%-16s %-30s fused %.4f ms, gemm %.4f, apart %.4f, compiled %.4f" % (
                r["shape"], chain, r["ms"]["fused"], r["ms"]["gemm"], r["ms"]["apart"], r["ms"]["compiled"]),
                flush=True)
    report(args.out, "gemm_epilogue", env, rows, markdown(env, rows))


if __name__ == "__main__":
    main()

"""The speed/accuracy frontier of float32 GEMM on the tensor cores.

For each size, every method multiplies the same float32 operands (random normal); the error is
the relative Frobenius norm of (result - float64 result). Each method also multiplies the
operands' absolute values, whose products all share a sign: there an unbiased method's errors
cancel in a row's sum and a biased one's (tensor cores truncating their partial sums toward
zero) add up. Reported: that sum's relative error and the share of the errors' mean magnitude
that leans one way (mean(err * sign(exact)) / mean(|err|): 0 unbiased, -1 every element short).
Methods:

  cublas_fp32        torch.mm at precision 'highest' (plain fp32 FMA)
  cublas_tf32        torch.mm at precision 'high' (one TF32 pass)
  split3_separate    3xTF32: a_hi@b_hi + a_hi@b_lo + a_lo@b_hi as three TF32 GEMMs
  split3_concat      3xTF32 as one TF32 GEMM over the concatenated 3K inner dimension
  bf16x3             a_hi@b_hi + a_hi@b_lo + a_lo@b_hi with bf16 halves, three bf16 GEMMs
  kernelwright_*     kernelwright.ops.linear at each precision (when the op is built); at
                     'highest' also with the TF32 split (_tf32split), with the fp16 split's cross
                     products in its one GEMM (_fused) or apart on cuBLAS (_apart), and with more
                     or fewer fp32 promotions than the default (_promote4, _promote16); at 'high' also one
                     TF32 pass (_tf32) instead of one fp16 product on row-scaled operands

--crossover times kernelwright's fp16 conversion (made every call, and made once for a weight
kept between calls) against the alternatives on thin and skinny
shapes, where the conversion's memory traffic weighs against its faster GEMM: at 'highest' the
three-product split against cuBLAS fp32, at 'high' (--precision high) the single fp16 product
against cuBLAS TF32 and kernelwright's TF32 kernel. The measured basis of the rule that picks
among them (csrc/ops/linear.cpp, conversion_pays_off). --b-major n stores the right operand as
torch.matmul's is ([k, n], n contiguous) rather than as a Linear weight ([n, k]).

Times are medians of CUDA-event timings with the L2 flushed; ratios are against cublas_fp32
measured in the same run.

    python benchmarks/bench_gemm_precision.py --sizes 4096,8192 --out benchmarks/results
    python benchmarks/bench_gemm_precision.py --crossover 256x131072x256,1024x8192x1024
    python benchmarks/bench_gemm_precision.py --crossover 1024x8192x1024 --precision high
    python benchmarks/bench_gemm_precision.py --crossover 256x131072x256 --precision high --b-major n
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import copy_bandwidth, environment, result_paths, write_json  # noqa: E402

from kernelwright.timing import time_fn  # noqa: E402


def split(x, dtype):
    hi = x.to(dtype)
    if dtype == torch.float32:  # TF32: round to 10 mantissa bits
        hi = _round_tf32(x)
    lo = (x - hi.float()).to(dtype) if dtype != torch.float32 else _round_tf32(x - hi)
    return hi, lo


def _round_tf32(x):
    bits = x.contiguous().view(torch.int32)
    rounded = (bits + 0x1000) & ~0x1FFF  # round half away from zero on the dropped 13 bits
    return rounded.view(torch.float32)


def with_precision(precision, fn):
    def call():
        old = torch.get_float32_matmul_precision()
        torch.set_float32_matmul_precision(precision)
        try:
            return fn()
        finally:
            torch.set_float32_matmul_precision(old)
    return call


def with_env(name, value, fn):
    def call():
        old = os.environ.get(name)
        os.environ[name] = value
        try:
            return fn()
        finally:
            if old is None:
                del os.environ[name]
            else:
                os.environ[name] = old
    return call


def methods(a, b):
    """name -> zero-argument callable computing a @ b^T (b is [N, K], as a Linear weight)."""
    a_hi, a_lo = split(a, torch.float32)
    b_hi, b_lo = split(b, torch.float32)
    a_cat = torch.cat([a_hi, a_hi, a_lo], dim=1)
    b_cat = torch.cat([b_hi, b_lo, b_hi], dim=1)
    a16_hi, a16_lo = split(a, torch.bfloat16)
    b16_hi, b16_lo = split(b, torch.bfloat16)
    m = {
        "cublas_fp32": with_precision("highest", lambda: a @ b.t()),
        "cublas_tf32": with_precision("high", lambda: a @ b.t()),
        "split3_separate": with_precision(
            "high", lambda: a_hi @ b_hi.t() + (a_hi @ b_lo.t() + a_lo @ b_hi.t())),
        "split3_concat": with_precision("high", lambda: a_cat @ b_cat.t()),
        # fp32 outputs: a bf16 product rounded to bf16 would measure the rounding, not bf16x3.
        "bf16x3": lambda: torch.mm(a16_hi, b16_hi.t(), out_dtype=torch.float32)
        + (torch.mm(a16_hi, b16_lo.t(), out_dtype=torch.float32)
           + torch.mm(a16_lo, b16_hi.t(), out_dtype=torch.float32)),
    }
    try:
        import kernelwright.ops as K

        if hasattr(K, "linear"):
            for p in ("highest", "high", "medium"):
                m["kernelwright_" + p] = with_precision(p, lambda: K.linear(a, b))
            highest = with_precision("highest", lambda: K.linear(a, b))
            m["kernelwright_highest_tf32split"] = with_env("KERNELWRIGHT_GEMM_SPLIT", "tf32", highest)
            m["kernelwright_high_tf32"] = with_env(
                "KERNELWRIGHT_GEMM_SPLIT", "tf32", with_precision("high", lambda: K.linear(a, b)))
            for cross in ("fused", "apart"):  # the split's cross products (gemm_split.cpp)
                m["kernelwright_highest_" + cross] = with_env("KERNELWRIGHT_GEMM_CROSS", cross, highest)
            for interval in (4, 16):  # more or fewer promotions than the default 8
                m["kernelwright_highest_promote%d" % interval] = with_env(
                    "KERNELWRIGHT_GEMM_PROMOTION_INTERVAL", str(interval), highest)
    except ImportError:
        pass
    return m


def rel_error(out, ref):
    return ((out.double() - ref).norm() / ref.norm()).item()


def signed_errors(out, ref):
    """(relative error of the rows' sums, mean(err * sign(ref)) / mean(|err|)) against float64."""
    err = out.double() - ref
    row_sums = ref.sum(1)
    return (((out.double().sum(1) - row_sums).norm() / row_sums.norm()).item(),
            ((err * ref.sign()).mean() / err.abs().mean().clamp_min(1e-300)).item())


# precision -> (label, environment or None for torch.mm, weight converted once) of each
# contender; the first is the baseline. "auto": what a user gets, the rules in
# csrc/ops/gemm_split.cpp choosing. "weight kept": b's conversion made once
# (kernelwright.ops.WeightCache), as for a layer's weight at inference (prepared_pays_off).
# At 'highest' the split's cross products run fused (one promoting GEMM over 3K) or apart
# (cuBLAS fp16, then hi*hi promoted): KERNELWRIGHT_GEMM_CROSS.
CONTENDERS = {
    "highest": [("cuBLAS fp32", None, False), ("kernelwright", {}, False),
                ("fp16 split, fused", {"KERNELWRIGHT_GEMM_SPLIT": "fp16",
                                       "KERNELWRIGHT_GEMM_CROSS": "fused"}, False),
                ("fp16 split, apart", {"KERNELWRIGHT_GEMM_SPLIT": "fp16",
                                       "KERNELWRIGHT_GEMM_CROSS": "apart"}, False),
                ("weight kept", {}, True)],
    "high": [("cuBLAS TF32", None, False), ("TF32 kernel", {"KERNELWRIGHT_GEMM_SPLIT": "tf32"}, False),
             ("fp16 scaled", {"KERNELWRIGHT_GEMM_SPLIT": "fp16"}, False),
             ("fp16 scaled, weight kept", {}, True)],
}


def with_envs(envs, fn):
    for name, value in envs.items():
        fn = with_env(name, value, fn)
    return fn


def crossover(shapes, precision, budget, env, out_dir, b_major="k"):
    """The contenders at `precision`, shape by shape; b [n, k] is a transposed view of a
    [k, n] matrix when b_major is 'n'."""
    import kernelwright.ops as K

    # Our one-pass TF32 kernel reads k-major b only; with an n-major b it would time cuBLAS again.
    contenders = [c for c in CONTENDERS[precision]
                  if not (b_major == "n" and c[1] and c[1].get("KERNELWRIGHT_GEMM_SPLIT") == "tf32")]
    labels = [c[0] for c in contenders]
    copy_gbs = copy_bandwidth(1 << 30)[0] / 1e9
    rows = []
    for shape in shapes:
        m, k, n = shape
        gen = torch.Generator(device="cuda").manual_seed(m + n + k)
        a = torch.randn(m, k, device="cuda", generator=gen)
        if b_major == "n":
            b = torch.randn(k, n, device="cuda", generator=gen).t()
        else:
            b = torch.randn(n, k, device="cuda", generator=gen)
        ref = a.double() @ b.double().t()
        row = {"m": m, "k": k, "n": n, "reuse": m * n / (m + n), "ms": {}, "error_vs_fp64": {},
               # Reading both operands and writing the output once at the measured copy rate.
               "memory_floor_ms": 4 * (m * k + k * n + m * n) / (copy_gbs * 1e9) * 1e3}
        for label, envs, kept in contenders:
            cache = K.WeightCache() if kept else None
            fn = (lambda: a @ b.t()) if envs is None else with_envs(
                envs, lambda cache=cache: K.linear(a, b, cache=cache))
            fn = with_precision(precision, fn)
            row["error_vs_fp64"][label] = rel_error(fn(), ref)
            row["ms"][label] = time_fn(fn, device="cuda", budget_s=budget).median_ms
        del ref
        row["speedup"] = {l: row["ms"][labels[0]] / row["ms"][l] for l in labels[1:]}
        rows.append(row)
        print("%6d x %6d x %6d  m*n/(m+n) %7.1f  floor %.3f ms  %s  %s" % (
            m, k, n, row["reuse"], row["memory_floor_ms"],
            "  ".join("%s %8.3f ms (err %.1e)" % (l, row["ms"][l], row["error_vs_fp64"][l]) for l in labels),
            "  ".join("%s %5.2fx" % (l, v) for l, v in row["speedup"].items())), flush=True)
    name = "gemm_split_crossover" if precision == "highest" else "gemm_%s_crossover" % precision
    if b_major == "n":
        name += "_n_major_b"
    json_path, md_path, _ = result_paths(out_dir, name, env)
    write_json(json_path, {"environment": env, "precision": precision, "b_major": b_major,
                           "copy_gbs": copy_gbs, "rows": rows})
    with open(md_path, "w") as f:
        f.write("# '%s' float32 GEMM: kernelwright's kernels against %s\n\n%s, torch %s, CUDA %s, %s\n\n" % (
            precision, labels[0], env["device"], env["torch"], env["cuda"], env["date"]))
        f.write("Right operand stored %s. Memory floor: operands read and output written once at the "
                "copy bandwidth measured in this run (%.0f GB/s).\n\n" % (
                    "[k, n], n contiguous (torch.matmul's)" if b_major == "n"
                    else "[n, k], k contiguous (a Linear weight)", copy_gbs))
        f.write("| M | K | N | M*N/(M+N) | memory floor ms | %s | %s | %s |\n|%s\n" % (
            " | ".join(l + " ms" for l in labels), " | ".join("%s vs %s" % (l, labels[0]) for l in labels[1:]),
            " | ".join(l + " error vs fp64" for l in labels), "---|" * (5 + 3 * len(labels) - 1)))
        for r in rows:
            f.write("| %d | %d | %d | %.1f | %.3f | %s | %s | %s |\n" % (
                r["m"], r["k"], r["n"], r["reuse"], r["memory_floor_ms"],
                " | ".join("%.3f" % r["ms"][l] for l in labels),
                " | ".join("%.2fx" % r["speedup"][l] for l in labels[1:]),
                " | ".join("%.2e" % r["error_vs_fp64"][l] for l in labels)))
    print("wrote", json_path, md_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="4096,8192", help="comma-separated M=N=K values")
    ap.add_argument("--crossover", default=None,
                    help="comma-separated MxKxN shapes: time the fp16 conversion against its alternatives instead")
    ap.add_argument("--precision", default="highest", choices=sorted(CONTENDERS),
                    help="float32 matmul precision of --crossover")
    ap.add_argument("--b-major", default="k", choices=["k", "n"],
                    help="--crossover: the right operand's contiguous axis")
    ap.add_argument("--out", default="benchmarks/results")
    ap.add_argument("--budget", type=float, default=1.5, help="seconds per timing")
    args = ap.parse_args()
    env = environment()
    if args.crossover:
        shapes = [tuple(int(v) for v in s.split("x")) for s in args.crossover.split(",")]
        return crossover(shapes, args.precision, args.budget, env, args.out, args.b_major)
    rows = []
    for n in [int(s) for s in args.sizes.split(",")]:
        gen = torch.Generator(device="cuda").manual_seed(n)
        a = torch.randn(n, n, device="cuda", generator=gen)
        b = torch.randn(n, n, device="cuda", generator=gen)
        ref = a.double() @ b.double().t()
        a_abs, b_abs = a.abs(), b.abs()
        ref_abs = a_abs.double() @ b_abs.double().t()
        one_signed = methods(a_abs, b_abs)
        base = None
        for name, fn in methods(a, b).items():
            err = rel_error(fn(), ref)
            row_sum_err, lean = signed_errors(one_signed[name](), ref_abs)
            t = time_fn(fn, device="cuda", budget_s=args.budget)
            if base is None:
                base = (t.median_ms, err)
            row = {
                "size": n, "method": name, "median_ms": t.median_ms, "rse": t.rse,
                "tflops": 2 * n ** 3 / (t.median_ms * 1e-3) / 1e12,
                "rel_error_vs_fp64": err,
                "speed_vs_cublas_fp32": base[0] / t.median_ms,
                "error_vs_cublas_fp32": err / base[1],
                "one_signed_row_sum_error": row_sum_err,
                "one_signed_lean": lean,
            }
            rows.append(row)
            print("%5d %-22s %8.3f ms %7.1f TFLOP/s  err %.3e  %5.2fx faster  %6.2fx error  "
                  "one-signed: row sums %.1e, lean %+.2f" % (
                      n, name, row["median_ms"], row["tflops"], err, row["speed_vs_cublas_fp32"],
                      row["error_vs_cublas_fp32"], row_sum_err, lean), flush=True)
        del a, b, ref, a_abs, b_abs, ref_abs, one_signed
        torch.cuda.empty_cache()
    json_path, md_path, _ = result_paths(args.out, "gemm_precision", env)
    write_json(json_path, {"environment": env, "rows": rows})
    with open(md_path, "w") as f:
        f.write("# float32 GEMM: speed and error against float64\n\n%s, torch %s, CUDA %s, %s\n\n" % (
            env["device"], env["torch"], env["cuda"], env["date"]))
        f.write("| M=N=K | method | ms | TFLOP/s | rel. error vs fp64 | speed vs cuBLAS fp32 | error vs cuBLAS fp32 "
                "| one-signed operands: row sums' error | lean |\n")
        f.write("|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %d | %s | %.3f | %.1f | %.2e | %.2f | %.2f | %.2e | %+.2f |\n" % (
                r["size"], r["method"], r["median_ms"], r["tflops"], r["rel_error_vs_fp64"],
                r["speed_vs_cublas_fp32"], r["error_vs_cublas_fp32"], r["one_signed_row_sum_error"],
                r["one_signed_lean"]))
    print("wrote", json_path, md_path)


if __name__ == "__main__":
    main()

"""The measurements behind the verdict's precision contract (verdict.precision_check).

Reads every recorded evaluation under benchmarks/results (results.jsonl and other .jsonl files,
and .json files that hold results) and sorts the candidates into:

  honest                  kernelwright's own candidates, other authors' reference material, and
                          the blind candidates their authors meant to be correct
  lower precision inside  blind candidates whose authors describe TF32 or float16 arithmetic in
                          a float32 problem, or float16 accumulation in a float16 one
  other wrong or cheating the remaining blind candidates

For each, the error ratio as the contract measures it (the candidate's relative error against
float64 over the reference error: the eager reference's, floored at the unit roundoff of the
output dtype and of the precision's arithmetic) at the float32 matmul precision the run used,
and what the contract decides.  Then the GEMM methods of benchmarks/bench_gemm_precision.py
under the 'highest' and 'high' contracts, and the arithmetic classes emulated here on the CPU:
operands rounded to TF32, float16, bfloat16 and float8 before an exact product.

    python benchmarks/precision_evidence.py > benchmarks/results/precision_evidence_DATE.md
"""

import glob
import json
import os
import statistics

import torch

from kernelwright.harness.verdict import HALF_RATIO, PRECISION_RATIO, precision_bound, precision_check

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "benchmarks", "results")
BLIND = os.path.join(ROOT, "tests", "blind")

# (round, id): what the author wrote the candidate to do, in the expectation files' words.
LOWER_PRECISION = {
    ("round1", "linear_relu/tf32_toggle"): "TF32 matmul in a float32 problem",
    ("round1", "matmul/half_precision"): "float16 operands in a float32 matmul",
    ("round1", "sum_dim_fp16/wrong_half_accum"): "float16 accumulation of 4096 terms (float16 problem)",
    ("round2", "layernorm/ln_mixed"): "LayerNorm statistics from float16-rounded input (float32 problem)",
    ("round2", "l2_normalize_rows_fp16/cuda_half_accum"): "float16 accumulation of squares (float16 problem)",
}
# `kernelwright optimize` records known to compute below float32 inside, by results file and
# problem (the same problem in another run is judged by its own record).
OPTIMIZE_LOWER_PRECISION = {
    ("optimize_kernelbench_sample_nvidia-h100_2026-11-25.jsonl", "65_Conv2d_AvgPool_Sigmoid_Sum"):
        "a ModelNew whose convolution cuDNN ran at TF32 in channels_last",
}


def _expectations():
    out = {}
    for path in glob.glob(os.path.join(BLIND, "**", "expected_*.json"), recursive=True):
        rnd = "round2" if os.sep + "round2" + os.sep in path else "round1"
        with open(path) as f:
            for cid, exp in json.load(f).items():
                out[(rnd, cid)] = exp["expected"]
    return out


def _records(path):
    """(name, record, precision of the whole file or None) of every result in a file."""
    if path.endswith(".jsonl"):
        with open(path) as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    yield rec.get("id") or rec.get("candidate"), rec, None
        return
    with open(path) as f:
        try:
            doc = json.load(f)
        except ValueError:
            return
    stack = [(None, doc)]
    while stack:
        name, x = stack.pop()
        if isinstance(x, dict) and "error_vs_fp64" in x:
            yield name, x, doc.get("precision") if isinstance(doc, dict) else None
        elif isinstance(x, dict):
            stack += list(x.items())
        elif isinstance(x, list):
            stack += [(name, v) for v in x]


def _dtype(rec, name):
    """The output dtype: the problem's main dtype where the run recorded it, else the name's."""
    dtype = (rec.get("ceiling") or {}).get("matrix_dtype")
    if dtype:
        return dtype
    low = (name or "").lower()
    return "float16" if "fp16" in low else "bfloat16" if "bf16" in low else "float32"


def collect():
    expected = _expectations()
    rows, skipped, unclassified = [], 0, []
    for path in sorted(glob.glob(os.path.join(RESULTS, "**", "*.json*"), recursive=True)):
        rel_path = os.path.relpath(path, RESULTS)
        rnd = "round2" if "round2" in rel_path else "round1"
        for name, rec, file_precision in _records(path):
            cand = (rec.get("error_vs_fp64") or {}).get("rel_l2")
            eager = (rec.get("reference_error_vs_fp64") or {}).get("rel_l2")
            if cand is None or eager is None:
                skipped += 1
                continue
            precision = rec.get("precision") or (rec.get("ceiling") or {}).get("precision") or file_precision
            assumed = precision is None
            precision = precision or "highest"
            name = str(name)
            if str(rec.get("candidate")).endswith("candidate_kernelwright.py"):
                group, label = "honest", "kernelwright " + rec["candidate"].split("/")[-2]
            elif name.startswith("reference_material_"):
                group, label = "honest", name
            elif "decisions" in rec and "kernels" in rec:  # a `kernelwright optimize` record
                problem = rec.get("problem")
                known = OPTIMIZE_LOWER_PRECISION.get((os.path.basename(path), problem))
                if known:
                    group, label = "lower precision inside", "optimize %s (%s)" % (problem, known)
                else:
                    group, label = "honest", "optimize " + problem
            elif (rnd, name) in LOWER_PRECISION:
                group, label = "lower precision inside", "%s %s (%s)" % (rnd, name, LOWER_PRECISION[(rnd, name)])
            elif (rnd, name) in expected:
                group = "honest" if expected[(rnd, name)] == "pass" else "other wrong or cheating"
                label = "%s %s" % (rnd, name)
            else:
                unclassified.append("%s: %s" % (rel_path, name))
                continue
            dtype = _dtype(rec, name)
            check = precision_check(cand, eager, [dtype], precision)
            rows.append(dict(file=rel_path, group=group, label=label, precision=precision, assumed=assumed,
                             dtype=dtype, cand=cand, eager=eager, recorded_ratio=rec.get("error_ratio"),
                             ratio=check["ratio"], allowed=check["allowed"], fails=check["flag"] is not None,
                             verdict=rec.get("verdict")))
    return rows, skipped, unclassified


def _g(x):
    return "-" if x is None else "%.3g" % x


def records_section(rows, skipped, unclassified):
    out = ["## Recorded evaluations", "",
           "%d results with errors against float64 in %d files; %d without them (errors, crashes, a "
           "non-finite error); %d of them at a precision not recorded, taken as torch's default "
           "'highest' (runs before the ceilings recorded it).  Not classified, so left out: %s." % (
               len(rows), len({r["file"] for r in rows}), skipped, sum(r["assumed"] for r in rows),
               "; ".join(unclassified) or "none"), "",
           "Contract ratio: candidate's error / max(eager's error, floor); the floor is the unit roundoff "
           "of the output dtype and, for float32, of the precision's arithmetic (float32, TF32, bfloat16). "
           "Allowed for float32 outputs: %s; for float16 and bfloat16 outputs %gx at any precision." % (
               ", ".join("%gx at '%s'" % (v, k) for k, v in PRECISION_RATIO.items()), HALF_RATIO), "",
           "### Distribution per group, precision and output dtype", "",
           "| group | precision | dtype | results | candidates | min | median | max | allowed | fail the contract |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    keys = sorted({(r["group"], r["precision"], r["dtype"]) for r in rows})
    for key in keys:
        sel = [r for r in rows if (r["group"], r["precision"], r["dtype"]) == key]
        ratios = [r["ratio"] for r in sel]
        out.append("| %s | %s | %s | %d | %d | %s | %s | %s | %gx | %d |" % (
            key[0], key[1], key[2], len(sel), len({r["label"] for r in sel}), _g(min(ratios)),
            _g(statistics.median(ratios)), _g(max(ratios)), sel[0]["allowed"], sum(r["fails"] for r in sel)))
    turned = sorted({"%s (%s, %s)" % (r["label"], r["group"], r["file"].split("/")[0])
                     for r in rows if r["verdict"] == "pass" and r["fails"]})
    out += ["", "Recorded passes the contract fails: %s." % ("; ".join(turned) or "none")]
    for precision, dtype in sorted({(r["precision"], r["dtype"]) for r in rows}):
        honest = [r["ratio"] for r in rows if (r["precision"], r["dtype"], r["group"]) == (precision, dtype, "honest")]
        low = [r["ratio"] for r in rows
               if (r["precision"], r["dtype"], r["group"]) == (precision, dtype, "lower precision inside")]
        if honest and low:
            out += ["", "%s outputs at '%s': honest candidates up to %.3g, lower precision inside from %.3g; "
                        "their geometric middle is %.3g." % (dtype, precision, max(honest), min(low),
                                                             (max(honest) * min(low)) ** 0.5)]
    for group in ("honest", "lower precision inside"):
        out += ["", "### %s: each candidate's largest ratio" % group.capitalize(), "",
                "| candidate | precision | dtype | results | error vs fp64 | eager's | recorded error_ratio | "
                "contract ratio | allowed | contract | recorded verdict |",
                "|---|---|---|---|---|---|---|---|---|---|---|"]
        sel = [r for r in rows if r["group"] == group]
        by = {}
        for r in sel:
            k = (r["label"], r["precision"], r["dtype"])
            by.setdefault(k, []).append(r)
        for k, rs in sorted(by.items(), key=lambda kv: -max(r["ratio"] for r in kv[1])):
            worst = max(rs, key=lambda r: r["ratio"])
            out.append("| %s | %s | %s | %d | %s | %s | %s | %s | %gx | %s | %s |" % (
                k[0], k[1], k[2], len(rs), _g(worst["cand"]), _g(worst["eager"]), _g(worst["recorded_ratio"]),
                _g(worst["ratio"]), worst["allowed"], "fail" if worst["fails"] else "pass",
                ", ".join(sorted({r["verdict"] for r in rs}))))
    return out


def gemm_section():
    path = os.path.join(RESULTS, "gemm_precision_nvidia-h200_2026-11-22.json")
    with open(path) as f:
        doc = json.load(f)
    env = doc.get("environment") or {}
    out = ["", "## GEMM methods (%s, %s)" % (os.path.relpath(path, ROOT), env.get("device", "?")), "",
           "Each method's error on the same float32 operands, judged as a candidate whose eager reference is "
           "cuBLAS at 'highest' (float32) and at 'high' (TF32, as eager is on CUDA there).", "",
           "| M=N=K | method | error vs fp64 | ratio at 'highest' | contract | ratio at 'high' | contract |",
           "|---|---|---|---|---|---|---|"]
    by_size = {}
    for row in doc["rows"]:
        by_size.setdefault(row["size"], {})[row["method"]] = row["rel_error_vs_fp64"]
    for size, errs in sorted(by_size.items()):
        for method, err in errs.items():
            hi = precision_check(err, errs["cublas_fp32"], ["float32"], "highest")
            tf = precision_check(err, errs["cublas_tf32"], ["float32"], "high")
            out.append("| %d | %s | %s | %s | %s | %s | %s |" % (
                size, method, _g(err), _g(hi["ratio"]), "fail" if hi["flag"] else "pass", _g(tf["ratio"]),
                "fail" if tf["flag"] else "pass"))
    return out


def _round_tf32(x):
    bits = x.contiguous().view(torch.int32)
    return ((bits + 0x1000) & ~0x1FFF).view(torch.float32)  # 10 mantissa bits, as bench_gemm_precision


CLASSES = {
    "TF32": _round_tf32,
    "float16": lambda x: x.half().float(),
    "bfloat16": lambda x: x.bfloat16().float(),
    "float8_e4m3": lambda x: x.to(torch.float8_e4m3fn).float(),
}


def emulation_section(shapes=((128, 64, 128), (256, 1024, 256), (512, 4096, 512), (128, 8192, 128))):
    out = ["", "## Arithmetic classes, emulated on the CPU", "",
           "float32 operands (random normal, and uniform [0, 1) as many KernelBench problems draw) rounded to "
           "each class, then multiplied exactly (float64): the operands' rounding alone, which dominates a "
           "tensor-core GEMM with float32 accumulation; float32 is torch.mm on the CPU.  Errors are relative "
           "(rel_l2) against the float64 product, in units of TF32's unit roundoff (2^-11) in brackets.  "
           "Contract: which classes pass, with float32 eager at 'highest', TF32 eager at 'high' (CUDA) and "
           "float32 eager at 'medium' (the CPU: its floor decides).", "",
           "| M, K, N | operands | float32 | %s | pass at 'highest' | pass at 'high' | pass at 'medium' |" % (
               " | ".join(CLASSES)), "|---|---|---|%s---|---|---|" % ("---|" * len(CLASSES))]
    g = torch.Generator().manual_seed(0)
    for m, k, n in shapes:
        for dist in ("randn", "rand"):
            a = getattr(torch, dist)(m, k, generator=g)
            b = getattr(torch, dist)(k, n, generator=g)
            exact = a.double() @ b.double()

            def err(c):
                return float((c - exact).norm() / exact.norm())

            errs = {"float32": err((a @ b).double())}
            errs.update({name: err(fn(a).double() @ fn(b).double()) for name, fn in CLASSES.items()})
            eager = {"highest": errs["float32"], "high": errs["TF32"], "medium": errs["float32"]}
            passing = {p: ", ".join(c for c, e in errs.items()
                                    if precision_check(e, eager[p], ["float32"], p)["flag"] is None)
                       for p in eager}
            out.append("| %d, %d, %d | %s | %s | %s | %s | %s | %s |" % (
                m, k, n, dist, _g(errs["float32"]),
                " | ".join("%s (%.2f)" % (_g(errs[c]), errs[c] / 2.0**-11) for c in CLASSES),
                passing["highest"], passing["high"], passing["medium"]))
    return out


def main():
    rows, skipped, unclassified = collect()
    lines = ["# The precision contract: measured error ratios", "",
             "Written by `benchmarks/precision_evidence.py` (torch %s); floors: float32 outputs at 'highest' %s, "
             "'high' %s, 'medium' %s." % (torch.__version__, *[
                 "%.3g (%s)" % precision_bound(["float32"], p)[:2] for p in ("highest", "high", "medium")]), ""]
    lines += records_section(rows, skipped, unclassified) + gemm_section() + emulation_section()
    print("\n".join(lines))
    honest_fail = [r for r in rows if r["group"] == "honest" and r["fails"]]
    return 1 if honest_fail else 0


if __name__ == "__main__":
    raise SystemExit(main())

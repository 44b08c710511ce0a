"""Validate the harness on a GPU machine: correct kernels pass with stable speedups, every
exploit is caught, and the harness's overhead stays small.

    PYTHONPATH=src python tests/harness_cases/gpu_validate.py OUT_DIR [SECONDS] [GROUP ...]

GROUPs: repro (the same correct kernels evaluated twice), inline (a load_inline CUDA
kernel, built then reused), exploits, small.  Default: all.

Each result is appended to OUT_DIR/validate.jsonl as soon as it is known, so a run cut
short still leaves everything it finished.
"""

import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "src"))

from kernelwright.harness import evaluate  # noqa: E402

sys.path.insert(0, HERE)
from exploit_meta import read_meta as _meta  # noqa: E402

FAST = dict(trials=2, compile=False, timing_budget_s=0.3, min_reps=8, warmup_ms=5.0, timeout=120)


def main():
    out_dir = sys.argv[1]
    stop_at = time.time() + (float(sys.argv[2]) if len(sys.argv) > 2 else 1e9)
    os.makedirs(out_dir, exist_ok=True)
    sink = open(os.path.join(out_dir, "validate.jsonl"), "a")
    build_dir = tempfile.mkdtemp(prefix="kw-build-")

    def record(tag, r, expect=None):
        t = r.get("timings") or {}
        row = {
            "tag": tag, "verdict": r["verdict"], "expect": expect, "flags": r["flags"],
            "reason": (r.get("reason") or "")[:300],
            "speedup_vs_eager": r.get("speedup_vs_eager"), "speedup_vs_compile": r.get("speedup_vs_compile"),
            "median_ms": {k: v["median_ms"] for k, v in t.items()},
            "rse": {k: v["rse"] for k, v in t.items()},
            "wall_median_ms": {k: v.get("wall_median_ms") for k, v in t.items()},
            "overhead": r.get("timing_overhead"),
            "elapsed_s": r.get("elapsed_s"), "import_s": r.get("import_s"), "compile_s": r.get("compile_s"),
            "error_ratio": r.get("error_ratio"), "device_name": r.get("device_name"),
            "torch": r.get("torch_version"), "cuda": r.get("cuda_version"),
            "kernels": [(k["source"], k["name"][:60], round(k["time_us"], 1))
                        for k in ((r.get("kernels") or {}).get("kernels") or [])[:4]],
            "flag_details": r.get("flag_details"),
        }
        if r["verdict"] in ("error", "crash", "timeout"):
            row["log_tail"] = (r.get("log_tail") or "")[-1500:]
        sink.write(json.dumps(row) + "\n")
        sink.flush()
        print("%-34s %-7s expect=%-28s %-60s %.1fs" % (
            tag, r["verdict"], expect, ",".join(r["flags"]), r.get("elapsed_s") or 0), flush=True)

    prob = lambda n: os.path.join(HERE, "problems", n + ".py")  # noqa: E731
    cand = lambda n: os.path.join(HERE, "candidates", n + ".py")  # noqa: E731

    groups = set(sys.argv[3:]) or {"repro", "inline", "exploits", "small"}
    plan = []
    if "repro" in groups:
        for i in (1, 2):
            plan.append(("elu triton run %d" % i, prob("elu_large"), cand("elu_large_triton"), {}, "pass"))
            plan.append(("matmul triton run %d" % i, prob("matmul"), cand("matmul_triton"), {}, "pass"))
    if "inline" in groups and shutil.which("nvcc"):
        for i in (1, 2):
            plan.append(("elu cuda inline run %d" % i, prob("elu_large"), cand("elu_large_cuda"),
                         {"build_dir": build_dir}, "pass"))
    for name in sorted(os.listdir(os.path.join(HERE, "exploits"))) if "exploits" in groups else []:
        m = _meta(os.path.join(HERE, "exploits", name))
        if "cuda" in m["DEVICES"]:
            plan.append(("exploit " + name, prob(m["PROBLEM"]), os.path.join(HERE, "exploits", name), FAST,
                         "%s/%s" % (m["EXPECT_VERDICT"], m["EXPECT_FLAG"])))
    for p, c in (("elu", "elu_correct"), ("linear_relu", "linear_relu_correct"), ("softmax", "softmax_correct"),
                 ("linear_relu", "linear_relu_wrong")) if "small" in groups else ():
        plan.append(("small " + c, prob(p), cand(c), FAST, "pass" if "correct" in c else "fail"))

    for tag, p, c, opts, expect in plan:
        if time.time() > stop_at:
            print("out of time before", tag)
            break
        record(tag, evaluate(p, c, device="cuda", **opts), expect)


if __name__ == "__main__":
    main()

"""How far apart evaluations of the same candidate land, per number of timing rounds.

    python benchmarks/bench_harness_repro.py --problems linear_gelu,matmul_large_k \
        --rounds 2,6 --repeats 2 --precision high --out benchmarks/results
    python benchmarks/bench_harness_repro.py --rounds 6 --repeats 4 \
        --problems tests/harness_cases/problems/elu_large.py:tests/harness_cases/candidates/elu_large_triton.py

Evaluates each case ``repeats`` times per rounds setting (in the order repeat, rounds, case,
so that drift spreads over every setting), each in fresh worker processes, and writes the
speedups (the headline per-call cost, from an idle GPU, and in device time) and medians as JSON; the last lines printed
give each case's spread, max/min - 1.  A case is a bundled problem's name (with its
kernelwright candidate) or PROBLEM.py:CANDIDATE.py.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import environment, result_paths, write_json  # noqa: E402

from kernelwright.harness import evaluate  # noqa: E402
from kernelwright.run import bundled_problems_dir  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--problems", default="linear_gelu,matmul_large_k")
    p.add_argument("--rounds", default="2,6", help="timing rounds settings, comma-separated")
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--precision", default="high", choices=["highest", "high", "medium"])
    p.add_argument("--out", default="benchmarks/results")
    args = p.parse_args()
    root = bundled_problems_dir()
    worker_env = {"KERNELWRIGHT_FLOAT32_MATMUL_PRECISION": args.precision}
    rows = []
    for rep in range(args.repeats):
        for rounds in [int(r) for r in args.rounds.split(",")]:
            for case in args.problems.split(","):
                if ":" in case:
                    prob, cand = case.split(":")
                    name = "%s:%s" % tuple(os.path.splitext(os.path.basename(f))[0] for f in (prob, cand))
                else:
                    name, d = case, os.path.join(root, case)
                    prob, cand = os.path.join(d, "problem.py"), os.path.join(d, "candidate_kernelwright.py")
                r = evaluate(prob, cand, device="cuda", compile=False, trials=2, timing_rounds=rounds,
                             env=worker_env)
                median = {k: (r["timings"].get(k) or {}).get("median_ms")
                          for k in ("eager", "candidate", "eager_device", "candidate_device")}
                host = {k: (r["timings"].get(k + "_device") or {}).get("host_median_ms")
                        for k in ("eager", "candidate")}
                row = dict(repeat=rep, rounds=rounds, problem=name, verdict=r["verdict"], reason=r["reason"],
                           speedup_vs_eager=r["speedup_vs_eager"],
                           speedup_vs_eager_idle=r.get("speedup_vs_eager_idle"),
                           speedup_vs_eager_device=r.get("speedup_vs_eager_device"),
                           cost_basis=r.get("cost_basis"), flags=r.get("flags"),
                           eager_ms=median["eager"], candidate_ms=median["candidate"],
                           eager_device_ms=median["eager_device"], candidate_device_ms=median["candidate_device"],
                           eager_host_ms=host["eager"], candidate_host_ms=host["candidate"],
                           launch_latency_ms=(r.get("timing_overhead") or {}).get("median_ms"),
                           elapsed_s=r["elapsed_s"])
                rows.append(row)
                print("repeat %d rounds %d %-16s %s: %s vs eager, %s from an idle GPU, %s in device time "
                      "(eager %s ms, candidate %s ms from idle)" % (
                          rep, rounds, name, r["verdict"], row["speedup_vs_eager"], row["speedup_vs_eager_idle"],
                          row["speedup_vs_eager_device"], median["eager"], median["candidate"]),
                      flush=True)
    for rounds in sorted({row["rounds"] for row in rows}):
        for name in sorted({row["problem"] for row in rows}):
            for key in ("speedup_vs_eager", "speedup_vs_eager_idle", "speedup_vs_eager_device"):
                vals = [row[key] for row in rows if row["rounds"] == rounds and row["problem"] == name and row[key]]
                if vals:
                    print("rounds %d %-20s %-24s %s  spread %.1f%%" % (
                        rounds, name, key, " ".join("%.3f" % v for v in vals), 100 * (max(vals) / min(vals) - 1)))
    env = environment()
    env["float32_matmul_precision"] = args.precision  # the workers', set through their environment
    path = result_paths(args.out, "harness_repro", env)[0]
    write_json(path, dict(env, results=rows))
    print("written:", path)


if __name__ == "__main__":
    main()

"""How far apart two evaluations of the same candidate land, per number of timing rounds.

    python benchmarks/bench_harness_repro.py --problems linear_gelu,matmul_large_k \
        --rounds 2,6 --repeats 2 --precision high --out benchmarks/results

Evaluates each bundled problem's kernelwright candidate ``repeats`` times per rounds setting
(in the order repeat, rounds, problem, so that drift spreads over every setting) and writes
the speedups and medians as JSON.
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
            for name in args.problems.split(","):
                d = os.path.join(root, name)
                r = evaluate(os.path.join(d, "problem.py"), os.path.join(d, "candidate_kernelwright.py"),
                             device="cuda", compile=False, trials=2, timing_rounds=rounds, env=worker_env)
                median = {k: (r["timings"].get(k) or {}).get("median_ms") for k in ("eager", "candidate")}
                row = dict(repeat=rep, rounds=rounds, problem=name, verdict=r["verdict"], reason=r["reason"],
                           speedup_vs_eager=r["speedup_vs_eager"], eager_ms=median["eager"],
                           candidate_ms=median["candidate"], elapsed_s=r["elapsed_s"])
                rows.append(row)
                print("repeat %d rounds %d %-16s %s: %s vs eager (eager %s ms, kernelwright %s ms)" % (
                    rep, rounds, name, r["verdict"], row["speedup_vs_eager"], median["eager"],
                    median["candidate"]), flush=True)
    env = environment()
    env["float32_matmul_precision"] = args.precision  # the workers', set through their environment
    path = result_paths(args.out, "harness_repro", env)[0]
    write_json(path, dict(env, results=rows))
    print("written:", path)


if __name__ == "__main__":
    main()

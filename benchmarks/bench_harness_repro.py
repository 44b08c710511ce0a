"""How far apart two evaluations of the same candidate land, per number of timing rounds.

    python benchmarks/bench_harness_repro.py --problems linear_gelu,matmul_large_k \
        --rounds 2,6 --repeats 2 --precision high --out benchmarks/results

Evaluates each bundled problem's kernelwright candidate ``repeats`` times per rounds setting
(in the order repeat, rounds, problem, so that drift spreads over every setting) and writes
the speedups and medians as JSON.
"""

import argparse
import datetime
import json
import os

import torch

from kernelwright.harness import evaluate
from kernelwright.run import bundled_problems_dir


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--problems", default="linear_gelu,matmul_large_k")
    p.add_argument("--rounds", default="2,6", help="timing rounds settings, comma-separated")
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--precision", default="high", choices=["highest", "high", "medium"])
    p.add_argument("--out", default="benchmarks/results")
    args = p.parse_args()
    root = bundled_problems_dir()
    env = {"KERNELWRIGHT_FLOAT32_MATMUL_PRECISION": args.precision}
    rows = []
    for rep in range(args.repeats):
        for rounds in [int(r) for r in args.rounds.split(",")]:
            for name in args.problems.split(","):
                d = os.path.join(root, name)
                r = evaluate(os.path.join(d, "problem.py"), os.path.join(d, "candidate_kernelwright.py"),
                             device="cuda", compile=False, trials=2, timing_rounds=rounds, env=env)
                t = r["timings"]
                row = dict(repeat=rep, rounds=rounds, problem=name, verdict=r["verdict"],
                           speedup_vs_eager=r["speedup_vs_eager"], eager_ms=t["eager"]["median_ms"],
                           candidate_ms=t["candidate"]["median_ms"], elapsed_s=r["elapsed_s"])
                rows.append(row)
                print("repeat %(repeat)d rounds %(rounds)d %(problem)-16s %(verdict)s %(speedup_vs_eager).4fx "
                      "eager %(eager_ms).4f ms, kernelwright %(candidate_ms).4f ms" % row, flush=True)
    meta = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, cuda=torch.version.cuda,
                date=datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), precision=args.precision)
    tag = torch.cuda.get_device_name().replace(" ", "-").lower()
    path = os.path.join(args.out, "harness_repro_%s_%s.json" % (tag, datetime.date.today().isoformat()))
    with open(path, "w") as f:
        json.dump(dict(meta, results=rows), f, indent=1)
    print("written:", path)


if __name__ == "__main__":
    main()

"""Prints one line per optimized problem from `kernelwright optimize --suite` results files:
verdict, speedups, error, generated kernels kept, seconds; then geometric means."""

import json
import math
import sys


def main(paths):
    records = []
    for path in paths:
        try:
            with open(path) as f:
                records += [json.loads(line) for line in f if line.strip()]
        except OSError:
            continue
    print("%-44s %-7s %8s %8s %9s %6s %6s" % ("problem", "verdict", "x eager", "x comp", "err", "kept", "s"))
    for r in records:
        kept = sum(1 for k in r.get("kernels") or [] if k.get("kept"))
        err = (r.get("error_vs_fp64") or {}).get("rel_l2")
        print("%-44s %-7s %8s %8s %9s %6s %6.0f" % (
            r["problem"][:44], r["verdict"], _x(r.get("speedup_vs_eager")), _x(r.get("speedup_vs_compile")),
            "%.2e" % err if err is not None else "-", "%d/%d" % (kept, len(r.get("kernels") or [])),
            (r.get("seconds") or {}).get("total", 0)))
    passing = [r for r in records if r.get("verdict") == "pass"]
    for key in ("speedup_vs_eager", "speedup_vs_compile"):
        vals = [r[key] for r in passing if r.get(key)]
        if vals:
            print("geomean %s over %d passing: %.3fx" % (key, len(vals), math.exp(sum(map(math.log, vals)) / len(vals))))


def _x(v):
    return "%.2f" % v if v else "-"


if __name__ == "__main__":
    main(sys.argv[1:])

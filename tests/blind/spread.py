"""How far the speedups of the same candidates moved between runs of a suite.

    python tests/blind/spread.py RUN1/results.jsonl RUN2/results.jsonl [RUN3/results.jsonl ...]

For each candidate with a result in at least two runs: its verdicts, and for the headline
speedup (cost per call), the speedup from an idle GPU and the device-time speedup, the values
and their spread (largest over smallest, minus one).  Last, per figure, how many candidates
agree within 5% and the largest spread.  Exits 1 when a verdict changed between runs.
"""

import json
import sys

FIGURES = (("headline", "speedup_vs_eager"), ("device", "speedup_vs_eager_device"),
           ("idle GPU", "speedup_vs_eager_idle"))


def load(path):
    with open(path) as f:
        return {r["id"]: r for r in (json.loads(line) for line in f if line.strip())}


def spread(values):
    return max(values) / min(values) - 1 if values and min(values) > 0 else None


def main(paths):
    runs = [load(p) for p in paths]
    ids = sorted({cid for run in runs for cid in run})
    spreads = {name: [] for name, _ in FIGURES}
    changed = 0
    print("| candidate | verdicts | " + " | ".join("%s (spread)" % name for name, _ in FIGURES) + " |")
    print("|---|---|" + "---|" * len(FIGURES))
    for cid in ids:
        rs = [run[cid] for run in runs if cid in run]
        if len(rs) < 2:
            continue
        verdicts = [r["verdict"] for r in rs]
        changed += len(set(verdicts)) > 1
        cells = []
        for name, key in FIGURES:
            values = [r[key] for r in rs if r.get(key)]
            s = spread(values) if len(values) > 1 else None
            if s is not None:
                spreads[name].append(s)
            cells.append("%s (%s)" % (" ".join("%.3f" % v for v in values) or "-",
                                      "-" if s is None else "%.1f%%" % (100 * s)))
        print("| %s | %s | %s |" % (cid, "/".join(verdicts), " | ".join(cells)))
    print()
    for name, _ in FIGURES:
        s = spreads[name]
        if s:
            print("%s: %d of %d within 5%%, largest spread %.1f%%" % (
                name, sum(x <= 0.05 for x in s), len(s), 100 * max(s)))
    print("verdicts changed between runs: %d" % changed)
    return 1 if changed else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))

"""Where `kernelwright optimize` stands on KernelBench, level by level, from the results files of
any number of runs: a problem's last record (in the order the files are given) counts. Prints
Markdown: per level the problems measured and missing, verdicts, geometric means against eager
and torch.compile, the share faster than torch.compile, problems under 0.95x eager or over 60 s,
those whose planned kernels all lost to ATen, then a line per problem with the device and date
it was measured on. --png PREFIX also draws each level's speedups to PREFIX_<level>.png.

    python scripts/optimize_levels.py --kernelbench KernelBench/KernelBench results1.jsonl ...

--kernelbench is the folder holding level1/ and level2/ (problem names say the level).
"""

import argparse
import os

from kernelwright.harness.report import plot, summarize
from kernelwright.optimize.report import latest_records, rel_l2, times


def level_section(level, names, latest):
    records = [(n, latest[n]) for n in names if n in latest]
    missing = [n for n in names if n not in latest]
    summary = summarize([r for _, r in records])
    passing = [(n, r) for n, r in records if r["verdict"] == "pass"]
    compiled = [r.get("speedup_vs_compile") for _, r in passing if r.get("speedup_vs_compile")]
    below = ["%s (%.3gx)" % (n, r["speedup_vs_eager"]) for n, r in passing if (r.get("speedup_vs_eager") or 1) < 0.95]
    # Kernels planned but none in the emitted module: each lost to the ATen ops it replaces (a
    # group in its GEMM's epilogue is emitted there), or the whole Model.forward measured faster
    # end to end (passthrough).
    unkept = [n for n, r in passing if r.get("kernels") and (r.get("passthrough") or not any(
        k.get("kept") or k.get("template") == "GEMM epilogue" for k in r["kernels"]))]
    slow = ["%s (%.0f s)" % (n, r["seconds"]["total"]) for n, r in records
            if (r.get("seconds") or {}).get("total", 0) > 60]
    geo = lambda key: summary.get(key) and "%.3fx" % summary[key]  # noqa: E731
    lines = ["## %s: %d of %d problems measured" % (level, len(records), len(names)), "",
             "- verdicts: %s" % (", ".join("%d %s" % (c, v) for v, c in sorted(summary["verdicts"].items())) or "-"),
             "- geometric mean over passing problems: %s vs eager, %s vs torch.compile; faster than torch.compile "
             "on %d of %d" % (geo("geomean_speedup_vs_eager"), geo("geomean_speedup_vs_compile"),
                              sum(1 for c in compiled if c > 1), len(compiled)),
             "- under 0.95x eager: %s" % (", ".join(below) or "none"),
             "- over 60 s to optimize: %s" % (", ".join(slow) or "none"),
             "- generated kernels planned, none in the emitted module: %s" % (
                 ", ".join(n.split("_")[0] for n in unkept) or "none"),
             "- not measured: %s" % (", ".join(n.split("_")[0] for n in missing) or "none"), "",
             "| problem | verdict | x eager | x torch.compile | error vs fp64 | s | device | date |",
             "|---|---|---|---|---|---|---|---|"]
    for n, r in records:
        lines.append("| %s | %s | %s | %s | %s | %.0f | %s | %s |" % (
            n, r["verdict"], times(r.get("speedup_vs_eager")), times(r.get("speedup_vs_compile")),
            rel_l2(r.get("error_vs_fp64")),
            (r.get("seconds") or {}).get("total", 0), r.get("device_name") or r.get("device") or "-",
            (r.get("date") or "-")[:10]))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kernelbench", required=True, help="folder holding level1/ and level2/")
    parser.add_argument("--png", metavar="PREFIX", help="draw each level's speedups to PREFIX_<level>.png")
    parser.add_argument("results", nargs="+", help="results.jsonl files, oldest first")
    args = parser.parse_args()
    latest = latest_records(args.results)
    lines = ["# kernelwright optimize on KernelBench: where each level stands", ""]
    for level in sorted(d for d in os.listdir(args.kernelbench) if d.startswith("level")):
        names = [f[:-3] for f in os.listdir(os.path.join(args.kernelbench, level)) if f.endswith(".py")]
        names.sort(key=lambda n: int(n.split("_")[0]) if n.split("_")[0].isdigit() else 10**9)
        lines += level_section(level, names, latest) + [""]
        if args.png:
            plot([dict(latest[n], id=n) for n in names if n in latest], "%s_%s.png" % (args.png, level),
                 where="KernelBench %s, last record of each problem" % level, title="kernelwright optimize")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

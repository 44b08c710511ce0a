"""Summaries of results: fast_p, geometric-mean speedup, a rich table, Markdown, a PNG plot."""

import json
import math
import os

from kernelwright.harness.roofline import num, si

FAST_P = (0.0, 1.0, 2.0)


def summarize(results):
    """Counts by verdict, KernelBench's fast_p and the geometric-mean speedup.

    ``fast_p`` is the fraction of *all* candidates that pass and are more than ``p``
    times faster than eager PyTorch (fast_0 is the fraction correct).  The geometric
    mean is over passing candidates with a measured speedup.
    """
    n = len(results)
    counts = {}
    for r in results:
        counts[r.get("verdict", "error")] = counts.get(r.get("verdict", "error"), 0) + 1
    passing = [r for r in results if r.get("verdict") == "pass"]
    speedups = [r["speedup_vs_eager"] for r in passing if r.get("speedup_vs_eager")]
    out = {"total": n, "verdicts": counts}
    for p in FAST_P:
        hits = sum(1 for r in passing if (r.get("speedup_vs_eager") or 0.0) > p)
        out["fast_%g" % p] = hits / n if n else 0.0
    out["geomean_speedup_vs_eager"] = (
        math.exp(sum(math.log(s) for s in speedups) / len(speedups)) if speedups else None)
    compiled = [r["speedup_vs_compile"] for r in passing if r.get("speedup_vs_compile")]
    out["geomean_speedup_vs_compile"] = (
        math.exp(sum(math.log(s) for s in compiled) / len(compiled)) if compiled else None)
    return out


def _fmt(x, spec="%.3g", none="-"):
    return none if x is None else spec % x


def _name(r):
    return r.get("id") or os.path.basename(r.get("candidate") or "?")


VARIANTS = (("candidate", "candidate"), ("eager", "eager"), ("compile", "torch.compile"))


def _si(value, unit):
    return "-" if value is None else si(value, unit)


def _rate(r, key, variant):
    """A variant's GB/s (``key`` "gbps") or TFLOP/s ("tflops")."""
    value = (r.get(key) or {}).get(variant)
    return "-" if value is None else num(value)


def _of_ceiling(r):
    f = r.get("fraction_of_ceiling")
    return "-" if f is None else "%.3g %s" % (f, r.get("bound_by"))


def _ceiling(r):
    c = r.get("ceiling") or {}
    parts = []
    if c.get("copy_gbps"):
        parts.append("copy %s GB/s" % num(c["copy_gbps"]))
    if c.get("matrix_tflops"):
        parts.append("%s matmul %s TFLOP/s (precision %s)" % (c["matrix_dtype"], num(c["matrix_tflops"]),
                                                              c["precision"]))
    return ", ".join(parts) or "-"


def bound_line(r):
    """What bounds a candidate, then its design note; None when neither is known."""
    parts = [p for p in (r.get("bound"), r.get("design") and "Design: " + r["design"]) if p]
    return ". ".join(parts) or None


def _import_s(r):
    phases = r.get("phase_s") or {}
    spent = [v for w in phases.values() for k, v in w.items() if k.startswith("import")]
    return sum(spent) if spent else None


def _slowest_phases(r, n=4):
    phases = [(v, "%s: %s" % (w, k)) for w, d in (r.get("phase_s") or {}).items()
              for k, v in d.items() if not k.startswith("import")]
    return ", ".join("%s %.1f" % (name, v) for v, name in sorted(phases, reverse=True)[:n]) or "-"


def markdown(results, summary):
    lines = ["# kernelwright eval", ""]
    lines.append("%d candidates: %s." % (summary["total"], ", ".join(
        "%d %s" % (v, k) for k, v in sorted(summary["verdicts"].items()))))
    lines.append("")
    lines.append("| fast_0 | fast_1 | fast_2 | geomean speedup vs eager | vs torch.compile |")
    lines.append("|---|---|---|---|---|")
    lines.append("| %.3f | %.3f | %.3f | %s | %s |" % (
        summary["fast_0"], summary["fast_1"], summary["fast_2"],
        _fmt(summary["geomean_speedup_vs_eager"], "%.3fx"), _fmt(summary["geomean_speedup_vs_compile"], "%.3fx")))
    lines += ["", "| candidate | verdict | vs eager | vs eager, idle GPU | vs eager, device time | vs compile "
                  "| error ratio | of ceiling | flags | reason |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        reason = (r.get("reason") or "").replace("|", "\\|").replace("\n", " ")
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            _name(r), r.get("verdict"), _fmt(r.get("speedup_vs_eager"), "%.3fx"),
            _fmt(r.get("speedup_vs_eager_idle"), "%.3fx"),
            _fmt(r.get("speedup_vs_eager_device"), "%.3fx"), _fmt(r.get("speedup_vs_compile"), "%.3fx"),
            _fmt(r.get("error_ratio"), "%.3g"), _of_ceiling(r),
            ", ".join(r.get("flags") or []) or "-", reason[:160]))
    lines += ["", "## Throughput", "",
              "FLOPs as torch.utils.flop_counter counts them (elementwise ops count 0); bytes: inputs, "
              "weights and outputs, each once; rates from median times; ceilings measured in the same run.", "",
              "| candidate | FLOPs | bytes | %s | %s | ceilings |" % (
                  " | ".join("%s GB/s" % v for _, v in VARIANTS), " | ".join("%s TFLOP/s" % v for _, v in VARIANTS)),
              "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            _name(r), _si(r.get("flops"), "FLOP"), _si(r.get("bytes"), "B"),
            " | ".join(_rate(r, "gbps", k) for k, _ in VARIANTS),
            " | ".join(_rate(r, "tflops", k) for k, _ in VARIANTS), _ceiling(r)))
    lines += ["", "## Evaluation time", "",
              "Wall time per candidate; imports (and the builds they start) are not harness overhead. "
              "Phases run in two workers, partly at once.", "",
              "| candidate | total s | imports and builds s | slowest phases (s) |", "|---|---|---|---|"]
    for r in results:
        lines.append("| %s | %s | %s | %s |" % (
            _name(r), _fmt(r.get("elapsed_s"), "%.1f"), _fmt(_import_s(r), "%.1f"), _slowest_phases(r)))
    bounds = [(r, bound_line(r)) for r in results]
    lines += ["", "## What bounds each candidate", ""] + [
        "- **%s**: %s" % (_name(r), line) for r, line in bounds if line]
    return "\n".join(lines) + "\n"


def plot(results, path):
    """Bar chart of speedups vs eager (log scale) of every candidate that has one."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [(r, r.get("speedup_vs_eager")) for r in results if r.get("speedup_vs_eager")]
    rows.sort(key=lambda x: x[1])
    fig, ax = plt.subplots(figsize=(max(6, 0.35 * len(rows) + 2), 4.5))
    if rows:
        colors = ["tab:green" if r.get("verdict") == "pass" else "tab:red" for r, _ in rows]
        ax.bar(range(len(rows)), [s for _, s in rows], color=colors)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels([_name(r) for r, _ in rows], rotation=60, ha="right", fontsize=7)
        ax.set_yscale("log")
        ax.axhline(1.0, color="k", lw=0.8, ls="--")
    else:
        ax.text(0.5, 0.5, "no speedups measured", ha="center", va="center", transform=ax.transAxes)
    ax.set_ylabel("speedup vs eager PyTorch (green: pass, red: not pass)")
    ax.set_title("kernelwright eval")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_all(results, summary, out_dir):
    """summary.md, summary.json and speedups.png in ``out_dir``; returns their paths."""
    paths = {"markdown": os.path.join(out_dir, "summary.md"), "json": os.path.join(out_dir, "summary.json"),
             "plot": os.path.join(out_dir, "speedups.png"), "results": os.path.join(out_dir, "results.jsonl")}
    with open(paths["markdown"], "w") as f:
        f.write(markdown(results, summary))
    with open(paths["json"], "w") as f:
        json.dump(summary, f, indent=2)
    plot(results, paths["plot"])
    return paths


_STYLE = {"pass": "bold green", "fail": "bold red", "error": "bold yellow", "timeout": "bold magenta",
          "crash": "bold magenta"}


def results_table(results, title="kernelwright eval"):
    from rich.table import Table

    table = Table(title=title)
    right = {"justify": "right"}
    for col, kw in (("candidate", {}), ("verdict", {}), ("vs eager", right), ("idle GPU", right),
                    ("device time", right), ("vs compile", right),
                    ("err ratio", right), ("GB/s", right), ("TFLOP/s", right), ("of ceiling", right),
                    ("flags", {}), ("reason", {"overflow": "fold"})):
        table.add_column(col, **kw)
    for r in results:
        v = r.get("verdict", "error")
        table.add_row(_name(r), "[%s]%s[/]" % (_STYLE.get(v, ""), v), _fmt(r.get("speedup_vs_eager"), "%.3fx"),
                      _fmt(r.get("speedup_vs_eager_idle"), "%.3fx"), _fmt(r.get("speedup_vs_eager_device"), "%.3fx"), _fmt(r.get("speedup_vs_compile"), "%.3fx"),
                      _fmt(r.get("error_ratio"), "%.3g"),
                      _rate(r, "gbps", "candidate"), _rate(r, "tflops", "candidate"),
                      _of_ceiling(r), ", ".join(r.get("flags") or []) or "-", (r.get("reason") or "")[:200])
    return table


def print_bounds(results, console):
    """Under the table: per candidate, what bounds it and its design note."""
    for r in results:
        line = bound_line(r)
        if line:
            console.print("[bold]%s[/]: %s" % (_name(r), line), highlight=False)


def print_result(result, console):
    """A detailed view of one evaluation."""
    from rich.panel import Panel
    from rich.table import Table

    v = result.get("verdict", "error")
    head = "[%s]%s[/]  %s" % (_STYLE.get(v, ""), v.upper(), result.get("reason") or "")
    console.print(Panel(head, title=os.path.basename(result.get("candidate") or ""), expand=False))
    t = Table(show_header=False, box=None)
    t.add_column(style="dim")
    t.add_column()
    env = "%s (%s), torch %s, CUDA %s" % (result.get("device"), result.get("device_name"),
                                          result.get("torch_version"), result.get("cuda_version"))
    t.add_row("environment", env)
    if result.get("flags"):
        for f in result["flags"]:
            t.add_row("flag", "%s: %s" % (f, result["flag_details"].get(f, "")))
    err, ref = result.get("error_vs_fp64"), result.get("reference_error_vs_fp64")
    if err and ref:
        t.add_row("error vs fp64", "candidate max_abs %s rel_l2 %s | eager max_abs %s rel_l2 %s | ratio %s" % (
            _fmt(err.get("max_abs")), _fmt(err.get("rel_l2")), _fmt(ref.get("max_abs")),
            _fmt(ref.get("rel_l2")), _fmt(result.get("error_ratio"))))
    for name, tm in (result.get("timings") or {}).items():
        t.add_row("time " + name, "median %.4f ms, mean %.4f ms +- %.2f%% (n=%d, %s)" % (
            tm["median_ms"], tm["mean_ms"], 100 * tm["rse"] if tm.get("rse") is not None else float("nan"),
            tm["n"], tm["stopped_by"]))
    if result.get("speedup_vs_eager"):
        basis = result.get("cost_basis") or {}
        t.add_row("speedup", "%.3fx vs eager (%s from an idle GPU, %s in device time), %s vs torch.compile; "
                  "per-call cost: %s" % (
                      result["speedup_vs_eager"], _fmt(result.get("speedup_vs_eager_idle"), "%.3fx"),
                      _fmt(result.get("speedup_vs_eager_device"), "%.3fx"),
                      _fmt(result.get("speedup_vs_compile"), "%.3fx"),
                      ", ".join("%s %s" % kv for kv in sorted(basis.items())) or "-"))
    if result.get("bytes") is not None:
        t.add_row("work", "%s, %s (one forward of the reference)" % (
            _si(result["flops"], "FLOP"), _si(result["bytes"], "B")))
        t.add_row("rates", " | ".join("%s %s GB/s, %s TFLOP/s" % (label, _rate(result, "gbps", k),
                                                                    _rate(result, "tflops", k))
                                      for k, label in VARIANTS if k in (result.get("gbps") or {})))
    if result.get("ceiling"):
        t.add_row("ceilings", _ceiling(result))
    if bound_line(result):
        t.add_row("bound", bound_line(result))
    kern = result.get("kernels") or {}
    if kern.get("kernels"):
        t.add_row("kernels", "custom %.0f%%, torch.compile %.0f%%, library %.0f%%" % (
            100 * kern["custom_share"], 100 * kern["compiled_share"], 100 * kern["library_share"]))
        for k in kern["kernels"][:6]:
            t.add_row("", "%-8s %9.1f us x%-4d %s" % (k["source"], k["time_us"], k["calls"], k["name"][:90]))
    for n in result.get("notes") or []:
        t.add_row("note", n)
    console.print(t)
    if v in ("error", "timeout", "crash") and result.get("log_tail"):
        console.print(Panel(result["log_tail"][-3000:], title="log tail", expand=False))

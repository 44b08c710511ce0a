"""Summaries of results: fast_p, geometric-mean speedup, a rich table, Markdown, a PNG plot."""

import datetime
import json
import math
import os
import textwrap

from rich import box
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kernelwright.distributed.common import judged_by_markdown
from kernelwright.harness.roofline import num, si

FAST_P = (0.0, 1.0, 2.0)


def summarize(results):
    """Counts by verdict, KernelBench's fast_p and the geometric-mean speedup.

    ``fast_p`` is the fraction of *all* candidates that pass and are more than ``p``
    times faster than eager PyTorch (fast_0 is the fraction correct), skipped ones (too large
    for the device: nothing ran) left out.  The geometric mean is over passing candidates
    with a measured speedup.
    """
    counts = {}
    for r in results:
        counts[r.get("verdict", "error")] = counts.get(r.get("verdict", "error"), 0) + 1
    n = len(results) - counts.get("skipped", 0)
    passing = [r for r in results if r.get("verdict") == "pass"]
    speedups = [r["speedup_vs_eager"] for r in passing if r.get("speedup_vs_eager")]
    out = {"total": len(results), "verdicts": counts}
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


CPU_NOTE = ("CPU run: kernelwright's CPU kernels are plain loops, there for correctness and "
            "portability; the product is the CUDA path. Speedups below 1x are expected here and say "
            "nothing about the CUDA kernels.")


def on_cpu(r):
    return str(r.get("device") or "").startswith("cpu")


def bound_line(r):
    """What bounds a candidate, then its design note; None when neither is known.  The design
    notes describe CUDA kernels, so a CPU run leaves them out."""
    design = r.get("design") and not on_cpu(r) and "Design: " + r["design"]
    parts = [p for p in (r.get("bound"), design) if p]
    return ". ".join(parts) or None


def environment(results, problem_size=None, when=None):
    """Where the results were measured, in one line: device, torch, CUDA, Python, problem
    sizes and date.  ``problem_size``: KERNELWRIGHT_PROBLEM_SIZE as the workers saw it."""
    ran = [r for r in results if r.get("torch_version")]
    if not ran:
        where = "no worker reported its environment"
    else:
        devices = sorted({"%s (%s)" % (r.get("device"), r.get("device_name")) for r in ran})
        cuda = sorted({str(r.get("cuda_version")) for r in ran})
        where = "%s; torch %s; %s; Python %s" % (
            ", ".join(devices), ", ".join(sorted({r["torch_version"] for r in ran})),
            "no CUDA" if cuda == ["None"] else "CUDA " + ", ".join(cuda),
            ", ".join(sorted({str(r.get("python_version")) for r in ran})))
    sizes = ("KERNELWRIGHT_PROBLEM_SIZE=%s" % problem_size if problem_size
             else "as the problem files define them (KERNELWRIGHT_PROBLEM_SIZE unset)")
    when = when or datetime.datetime.now(datetime.timezone.utc)
    return "%s; problem sizes: %s; %s" % (where, sizes, when.strftime("%Y-%m-%d %H:%M UTC"))


def _import_s(r):
    phases = r.get("phase_s") or {}
    spent = [v for w in phases.values() for k, v in w.items() if k.startswith("import")]
    return sum(spent) if spent else None


def _slowest_phases(r, n=4):
    phases = [(v, "%s: %s" % (w, k)) for w, d in (r.get("phase_s") or {}).items()
              for k, v in d.items() if not k.startswith("import")]
    return ", ".join("%s %.1f" % (name, v) for v, name in sorted(phases, reverse=True)[:n]) or "-"


def markdown(results, summary, where=None):
    """``where``: the line from :func:`environment`."""
    lines = ["# kernelwright eval", ""]
    if where:
        lines += ["Measured on: " + where + ".", ""]
    if any(on_cpu(r) for r in results):
        lines += [CPU_NOTE, ""]
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
            ", ".join(r.get("flags") or []) or "-", reason))
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
    return "\n".join(lines) + "\n" + judged_by_markdown(results, _name)


def plot(results, path, where=None, title="kernelwright eval"):
    """Bar chart of speedups vs eager (log scale) of every candidate that has one; ``where``
    (the line from :func:`environment`) goes under the title."""
    # Imported here: matplotlib is slow to import, and its backend must be chosen first.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    rows = [(r, r.get("speedup_vs_eager")) for r in results if r.get("speedup_vs_eager")]
    rows.sort(key=lambda x: x[1])
    names, note = _short_names([r for r, _ in rows])
    fig, ax = plt.subplots(figsize=(max(7, 0.35 * len(rows) + 2), 5))
    if rows:
        colors = ["tab:green" if r.get("verdict") == "pass" else "tab:red" for r, _ in rows]
        ax.bar(range(len(rows)), [s for _, s in rows], color=colors)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels(names, rotation=60, ha="right", fontsize=7)
        ax.set_yscale("log")
        ax.axhline(1.0, color="k", lw=0.8, ls="--")
        ax.legend(handles=[Patch(color="tab:green", label="pass"), Patch(color="tab:red", label="not pass")],
                  fontsize=8, loc="upper left")
    else:
        ax.text(0.5, 0.5, "no speedups measured", ha="center", va="center", transform=ax.transAxes)
    ax.set_ylabel("speedup vs eager PyTorch")
    fig.suptitle(title + (" (%s)" % note if note else ""))
    if where:
        ax.set_title("\n".join(textwrap.wrap(where, 110)), fontsize=7)
    fig.tight_layout()
    # "tight" grows the saved area to whatever the layout left outside the figure.
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def write_all(results, summary, out_dir):
    """summary.md, summary.json and speedups.png in ``out_dir``, saying where the results were
    measured when the summary has its ``environment`` line; returns their paths."""
    paths = {"markdown": os.path.join(out_dir, "summary.md"), "json": os.path.join(out_dir, "summary.json"),
             "plot": os.path.join(out_dir, "speedups.png"), "results": os.path.join(out_dir, "results.jsonl")}
    where = summary.get("environment")
    with open(paths["markdown"], "w") as f:
        f.write(markdown(results, summary, where))
    with open(paths["json"], "w") as f:
        json.dump(summary, f, indent=2)
    plot(results, paths["plot"], where)
    return paths


STYLE = {"pass": "bold green", "fail": "bold red", "error": "bold yellow", "timeout": "bold magenta",
          "crash": "bold magenta", "skipped": "bold cyan"}


def _short_names(results):
    """Each result's name for the terminal, and a line saying what was left out: where every
    candidate has the same file name (`kernelwright run`'s candidate_kernelwright), the task
    alone names it."""
    names = [_name(r) for r in results]
    tails = {n.rpartition("/")[2] for n in names}
    if len(names) > 1 and len(tails) == 1 and all("/" in n for n in names):
        return [n.rpartition("/")[0] for n in names], "every candidate is %s" % tails.pop()
    return names, None


def _columns(results):
    """(header, cells, essential) in the order shown; the essential ones always are, the others
    while the terminal is wide enough.  Headers take two lines, so that they are no wider than
    the figures under them."""
    gpu = not all(on_cpu(r) for r in results)
    x = lambda key: [_fmt(r.get(key), "%.3fx") for r in results]  # noqa: E731
    cols = [("verdict", [r.get("verdict", "error") for r in results], True),
            ("vs\neager", x("speedup_vs_eager"), True),
            ("vs\ncompile", x("speedup_vs_compile"), True)]
    if gpu:
        cols += [("device\ntime", x("speedup_vs_eager_device"), False),
                 ("idle\nGPU", x("speedup_vs_eager_idle"), False)]
    cols += [("err\nratio", [_fmt(r.get("error_ratio"), "%.3g") for r in results], False),
             ("of\nceiling", [_of_ceiling(r) for r in results], False),
             ("GB/s", [_rate(r, "gbps", "candidate") for r in results], False),
             ("TFLOP/s", [_rate(r, "tflops", "candidate") for r in results], False)]
    return cols


def _width(header, cells):
    return max(len(line) for line in header.split("\n") + list(cells))


def results_table(results, width=80, title="kernelwright eval"):
    """The terminal's table: name, verdict, speedups and flags, and as many of the other
    figures as fit in ``width`` columns; summary.md has them all.  Names and flags are never
    cut: several flags of one candidate go on lines of their own."""
    names, note = _short_names(results)
    flags = [r.get("flags") or [] for r in results]
    flag_width = max([len(f) for fs in flags for f in fs] + [len("flags")])
    cols = _columns(results)
    gap = 2  # between two columns

    used = _width("candidate", names) + gap + flag_width + sum(_width(h, c) + gap for h, c, e in cols if e)
    shown = []
    for header, cells, essential in cols:
        if essential:
            shown.append((header, cells))
        elif used + _width(header, cells) + gap <= width:
            shown.append((header, cells))
            used += _width(header, cells) + gap

    table = Table(title=title if not note else "%s (%s)" % (title, note), box=box.SIMPLE_HEAD,
                  show_edge=False, pad_edge=False, collapse_padding=True, title_justify="left")
    table.add_column("candidate", no_wrap=True)
    for header, _ in shown:
        table.add_column(header, justify="left" if header == "verdict" else "right", no_wrap=True)
    table.add_column("flags", min_width=flag_width)
    for i, r in enumerate(results):
        row = [Text(names[i])]
        for header, cells in shown:
            row.append(Text(cells[i], style=STYLE.get(cells[i], "")) if header == "verdict" else Text(cells[i]))
        table.add_row(*row, Text(", ".join(flags[i]) or "-"))
    return table


def print_table(results, console, title="kernelwright eval"):
    """The table for the console's width; the note on CPU timings where they are CPU's; each
    result that did not pass, with its reason; what bounds each candidate."""
    console.print(results_table(results, console.width, title))
    if any(on_cpu(r) for r in results):
        console.print(Text(CPU_NOTE, style="yellow"))
    names, _ = _short_names(results)
    for name, r in zip(names, results):
        if r.get("verdict") != "pass":
            console.print(Text.assemble((name, "bold"), " ", (r.get("verdict", "error"), STYLE.get(
                r.get("verdict"), "")), ": ", r.get("reason") or ""))
    for name, r in zip(names, results):
        line = bound_line(r)
        if line:
            console.print(Text.assemble((name, "bold"), ": ", line))


def _environment_row(result):
    """The worker's device, torch and CUDA; None when no worker got as far as reporting them."""
    if not result.get("torch_version"):
        return None
    cuda = result.get("cuda_version")
    return "%s (%s), torch %s, %s" % (result.get("device"), result.get("device_name"), result["torch_version"],
                                      "CUDA %s" % cuda if cuda else "no CUDA")


def print_result(result, console):
    """A detailed view of one evaluation.  Every text from the result is shown as it is: a
    reason such as "[enforce fail at alloc_cpu.cpp:127]" is no console markup."""
    v = result.get("verdict", "error")
    head = Text.assemble((v.upper(), STYLE.get(v, "")), "  ", result.get("reason") or "")
    console.print(Panel(head, title=escape(os.path.basename(result.get("candidate") or "")), expand=False))
    t = Table(show_header=False, box=None)
    t.add_column(style="dim")
    t.add_column()

    def row(label, value):
        t.add_row(label, Text(value))

    cpu = on_cpu(result)
    env = _environment_row(result)
    if env:
        row("environment", env)
    for f in result.get("flags") or []:
        row("flag", "%s: %s" % (f, (result.get("flag_details") or {}).get(f, "")))
    err, ref = result.get("error_vs_fp64"), result.get("reference_error_vs_fp64")
    if err and ref:
        row("error vs fp64", "candidate max_abs %s rel_l2 %s | eager max_abs %s rel_l2 %s | ratio %s" % (
            _fmt(err.get("max_abs")), _fmt(err.get("rel_l2")), _fmt(ref.get("max_abs")),
            _fmt(ref.get("rel_l2")), _fmt(result.get("error_ratio"))))
    for name, tm in (result.get("timings") or {}).items():
        row("time " + name, "median %.4f ms, mean %.4f ms +- %.2f%% (n=%d, %s)" % (
            tm["median_ms"], tm["mean_ms"], 100 * tm["rse"] if tm.get("rse") is not None else float("nan"),
            tm["n"], tm["stopped_by"]))
    if result.get("speedup_vs_eager"):
        compile_x = _fmt(result.get("speedup_vs_compile"), "%.3fx")
        if cpu:  # one clock, the host's: no idle-GPU or device-time figures, no cost basis to pick
            row("speedup", "%.3fx vs eager, %s vs torch.compile" % (result["speedup_vs_eager"], compile_x))
        else:
            basis = result.get("cost_basis") or {}
            row("speedup", "%.3fx vs eager (%s from an idle GPU, %s in device time), %s vs torch.compile; "
                "per-call cost: %s" % (
                    result["speedup_vs_eager"], _fmt(result.get("speedup_vs_eager_idle"), "%.3fx"),
                    _fmt(result.get("speedup_vs_eager_device"), "%.3fx"), compile_x,
                    ", ".join("%s %s" % kv for kv in sorted(basis.items())) or "-"))
    if result.get("bytes") is not None:
        row("work", "%s, %s (one forward of the reference)" % (_si(result["flops"], "FLOP"), _si(result["bytes"], "B")))
        row("rates", " | ".join("%s %s GB/s, %s TFLOP/s" % (label, _rate(result, "gbps", k), _rate(result, "tflops", k))
                                for k, label in VARIANTS if k in (result.get("gbps") or {})))
    if result.get("ceiling"):
        row("ceilings", _ceiling(result))
    if bound_line(result):
        row("bound", bound_line(result))
    kern = result.get("kernels") or {}
    if kern.get("kernels"):
        row("kernels", "custom %.0f%%, torch.compile %.0f%%, library %.0f%%" % (
            100 * kern["custom_share"], 100 * kern["compiled_share"], 100 * kern["library_share"]))
        for k in kern["kernels"][:6]:
            row("", "%-8s %9.1f us x%-4d %s" % (k["source"], k["time_us"], k["calls"], k["name"][:90]))
    for n in result.get("notes") or []:
        row("note", n)
    if cpu and result.get("speedup_vs_eager"):
        t.add_row("note", Text(CPU_NOTE, style="yellow"))
    console.print(t)
    if v in ("error", "timeout", "crash") and result.get("log_tail"):
        console.print(Panel(Text(result["log_tail"][-3000:]), title="log tail", expand=False))

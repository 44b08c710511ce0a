"""What `kernelwright optimize` tells: per kernel, the ops it fuses, its time against the
ATen ops it replaces, the bytes it must move and the fraction of the measured copy
bandwidth that reaches, and a sentence on what bounds it; then the harness's verdict."""

import json
import os

from rich.markup import escape
from rich.table import Table

from .timed import HOPELESS

LAUNCH_BOUND_MS = 0.008


def group_rows(optimized):
    rows = []
    plan = optimized.plan
    for g in plan.groups:
        spec = plan.specs[g.id]
        t = optimized.timings.get(g.id)
        chosen_template = t.chosen.template if t and t.chosen else ""
        row = {"kernel": spec.name, "template": chosen_template or spec.template, "ops": list(dict.fromkeys(g.ops())),
               "op_count": len(g.nodes), "bytes": spec.bytes_moved,
               "aten_ms": t.aten_ms if t else None, "kernel_ms": t.kernel_ms if t else None,
               "kept": bool(t and t.chosen is not None) if t else None,
               "variant": t.chosen.describe() if t and t.chosen else None,
               "variants_ms": t.variants if t else {}, "error_vs_aten": t.error if t else None,
               "failures": t.failures if t else [], "timed_once": t.timed_once if t else [],
               "refused": t.refused if t else [],
               "note": t.note if t else "not measured (no GPU)"}
        fused = optimized.fusions.get(g.id)
        if fused is not None:
            # Runs in its GEMM's epilogue: its own kernel does not run, and the time it saves is
            # the GEMM's and the group's apart against the two fused.
            row.update(template="GEMM epilogue", epilogue_ms=fused.fused_ms, apart_ms=fused.apart_ms,
                       note="in the GEMM's epilogue: " + fused.note)
            rows.append(row)
            continue
        ms = row["kernel_ms"] if row["kept"] else row["aten_ms"]
        if ms and optimized.copy_gbps:
            gbps = spec.bytes_moved / (ms * 1e-3) / 1e9
            row["gbps"] = gbps
            row["fraction_of_copy"] = gbps / optimized.copy_gbps
            row["bound"] = _bound(ms, row["fraction_of_copy"])
        rows.append(row)
    return rows


def call_rows(optimized):
    """The ATen calls that had a stand-in: what each took, and which ran."""
    return [{"node": name, "aten_ms": c.aten_ms, "options_ms": c.options, "chosen": c.chosen, "note": c.note}
            for name, c in optimized.calls.items()]


def _bound(ms, fraction):
    if ms < LAUNCH_BOUND_MS:
        return "launch-bound: %.1f us, about one kernel launch" % (ms * 1e3)
    if fraction >= 0.7:
        return "memory-bound at %.2f of the copy bandwidth" % fraction
    return "%.2f of the copy bandwidth: below it (index arithmetic, too few rows in flight, or re-reads)" % fraction


def table(rows):
    t = Table(title="kernelwright optimize", show_lines=False)
    for col in ("kernel", "fuses", "ATen ms", "kernel ms", "x", "of copy", "kept"):
        t.add_column(col, overflow="fold")
    for r in rows:
        speed = r["aten_ms"] / r["kernel_ms"] if r["aten_ms"] and r["kernel_ms"] else None
        t.add_row(r["kernel"], escape("%d: %s" % (r["op_count"], ", ".join(r["ops"]))),
                  _ms(r["aten_ms"]), _ms(r["kernel_ms"]), "%.2f" % speed if speed else "-",
                  "%.2f" % r["fraction_of_copy"] if r.get("fraction_of_copy") else "-",
                  {True: "yes", False: "no", None: "-"}[r["kept"]])
    return t


def _ms(v):
    return "%.4f" % v if v is not None else "-"


def markdown(record):
    lines = ["# kernelwright optimize: %s" % record["problem"], "",
             "- device: %s; torch %s; date %s" % (record.get("device_name") or record["device"],
                                                record.get("torch_version"), record["date"]),
             "- verdict: **%s** (%s)" % (record["verdict"], record.get("reason") or ""),
             "- speedup vs eager %s, vs torch.compile %s; error vs float64 %s (eager's %s)" % (
                 times(record.get("speedup_vs_eager")), times(record.get("speedup_vs_compile")),
                 rel_l2(record.get("error_vs_fp64")), rel_l2(record.get("reference_error_vs_fp64"))),
             "- time: %s" % ", ".join("%s %.1f s" % kv for kv in record.get("seconds", {}).items()), "",
             "| kernel | fuses | ATen ms | kernel ms | bytes | of copy | kept | bound |",
             "|---|---|---|---|---|---|---|---|"]
    for r in record["kernels"]:
        lines.append("| %s | %d: %s | %s | %s | %d | %s | %s | %s |" % (
            r["kernel"], r["op_count"], ", ".join(r["ops"]), _ms(r["aten_ms"]), _ms(r["kernel_ms"]), r["bytes"],
            "%.2f" % r["fraction_of_copy"] if r.get("fraction_of_copy") else "-",
            {True: "yes", False: "no", None: "-"}[r["kept"]], r.get("bound") or r.get("note") or ""))
    for c in record.get("calls") or []:
        lines.append("| %s (ATen call) | - | %s | %s | - | - | %s | %s |" % (
            c["node"], _ms(c["aten_ms"]), ", ".join("%s %.4f" % kv for kv in c["options_ms"].items()) or "-",
            c["chosen"] or "ATen", c["note"]))
    lines += ["", "## Decisions", ""] + ["- " + d for d in record["decisions"]]
    measured = [r for r in record["kernels"] if r.get("variants_ms") or r.get("refused") or r.get("failures")]
    if measured:
        lines += ["", "## Variants measured", ""]
    for r in measured:
        once, refused = set(r.get("timed_once") or []), r.get("refused") or []
        lines.append("- %s (ATen %s ms): %s" % (r["kernel"], _ms(r["aten_ms"]), "; ".join(
            ["%s %.4f ms%s%s" % (name, ms, " (one call: over %gx the best so far)" % HOPELESS if name in once else "",
                                 " (chosen)" if name == r.get("variant") and r.get("kept") else "")
             for name, ms in r.get("variants_ms", {}).items()]
            + ["%s refused by the device (grid or cluster too large)" % name for name in refused]
            + list(r.get("failures") or [])) or "-"))
    return "\n".join(lines) + "\n"


def times(v):
    return "%.3fx" % v if v else "-"


def rel_l2(err):
    return "%.3g" % err["rel_l2"] if isinstance(err, dict) and err.get("rel_l2") is not None else "-"


def write(record, directory, stem):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, stem + ".json"), "w") as f:
        json.dump(record, f, indent=2, default=str)
    with open(os.path.join(directory, stem + ".md"), "w") as f:
        f.write(markdown(record))


def latest_records(paths, missing_ok=False):
    """{problem: its last record} over the results files ``paths`` (JSONL), read in order; a
    file that is not there is skipped where ``missing_ok``."""
    records = []
    for path in paths:
        if missing_ok and not os.path.exists(path):
            continue
        with open(path) as f:
            records += [json.loads(line) for line in f if line.strip()]
    return last_per_problem(records)


def last_per_problem(records):
    """{problem: its last record}, in the order of last appearance: a problem optimized again
    (a rerun, another folder) counts once, as measured last. The first runs named level-1
    problems "L1_<name>"; that prefix is dropped."""
    latest = {}
    for record in records:
        name = record["problem"][3:] if record["problem"].startswith("L1_") else record["problem"]
        latest.pop(name, None)
        latest[name] = record
    return latest


def suite_markdown(records, summary):
    """summary.md of a suite: where it ran, fast_p and geometric means, a line per problem."""
    first = next((r for r in records if r.get("device_name")), records[0] if records else {})
    lines = ["# kernelwright optimize: %d problems" % len(records), "",
             "- device: %s; torch %s; CUDA %s; precision %s; %s" % (
                 first.get("device_name") or first.get("device"), first.get("torch_version"),
                 first.get("cuda_version"), first.get("precision"), first.get("date")),
             "- verdicts: %s" % ", ".join("%d %s" % (n, v) for v, n in sorted(summary["verdicts"].items())),
             "- fast_0 %.3f, fast_1 %.3f, fast_2 %.3f; geometric mean over passing problems: %s vs eager, %s vs "
             "torch.compile" % (summary["fast_0"], summary["fast_1"], summary["fast_2"],
                                times(summary.get("geomean_speedup_vs_eager")),
                                times(summary.get("geomean_speedup_vs_compile"))), "",
             "| problem | verdict | x eager | x torch.compile | error vs fp64 | kernels kept | stand-ins | s | reason |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        kernels = r.get("kernels") or []
        kept = "Model's forward" if r.get("passthrough") else "%d/%d" % (
            sum(1 for k in kernels if k.get("kept")), len(kernels))
        stand_ins = ", ".join(c["chosen"] for c in r.get("calls") or [] if c.get("chosen")) or "-"
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %.0f | %s |" % (
            r["problem"], r["verdict"], times(r.get("speedup_vs_eager")), times(r.get("speedup_vs_compile")),
            rel_l2(r.get("error_vs_fp64")), kept, stand_ins, (r.get("seconds") or {}).get("total", 0),
            "" if r["verdict"] == "pass" else (r.get("reason") or "").replace("|", "/")[:160]))
    return "\n".join(lines) + "\n"

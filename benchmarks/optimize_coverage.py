"""What `kernelwright optimize` would generate for every problem of one or more folders, checked
without a GPU: each problem is built on the meta device (its published sizes, no memory),
captured and planned; every pointwise, reduction and pooling op is either in a generated kernel
or listed with the planner's reason; one variant of each template is compiled with NVRTC; both
module writers run and their text compiles as Python.

    python benchmarks/optimize_coverage.py KERNELBENCH/level1 KERNELBENCH/level2 --out coverage.md

Measures coverage, not speed: which kernels the GPU would then time against ATen.
"""

import argparse
import datetime
import importlib.util
import os
import sys
import time
import warnings
from collections import Counter

import torch

from kernelwright.kernel import nvrtc
from kernelwright.optimize import capture, emit, emit_standalone, opset, plan, runtime
from kernelwright.optimize.suite import problem_files

_WORK = (opset.POINTWISE, opset.REDUCTION, opset.WINDOW, opset.SCAN)


def _load(path):
    spec = importlib.util.spec_from_file_location("kw_coverage_problem", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with torch.device("meta"):
        model = module.Model(*module.get_init_inputs())
        inputs = module.get_inputs()
    return model, inputs


def _compile_all(p):
    """NVRTC errors, one line each, for two variants of each group's template and one of each
    other template it may run."""
    errors = []
    for g in p.groups:
        spec = p.specs[g.id]
        others = {v.template: v for v in spec.variants if v.template}
        for launch in [v for v in spec.variants if not v.template][:2] + list(others.values()):
            try:
                nvrtc._compile(runtime.PRELUDE + spec.cuda_source(launch), spec.name + ".cu", spec.name,
                               ["--gpu-architecture=compute_90", "-std=c++17"], spec.name)
            except Exception as error:  # noqa: BLE001 - every failure is a line of the report
                errors.append("%s %s: %s" % (spec.name, launch.describe(), str(error).splitlines()[0][:160]))
    return errors


def _emit_errors(p, path):
    """Both module writers run on the plan and their text compiles as Python (the module itself
    needs the problem's real weights to run, which the meta device does not have)."""
    with open(path) as f:
        problem = f.read()
    errors = []
    for what, writer in (("module", emit.module_source), ("standalone module", emit_standalone.module_source)):
        try:
            compile(writer(p, problem, os.path.basename(path), {}, []), path, "exec")
        except Exception as error:  # noqa: BLE001 - every failure is a line of the report
            errors.append("%s: %s: %s" % (what, type(error).__name__, str(error).splitlines()[0][:160]))
    return errors


def examine(path, compile_kernels):
    row = {"problem": os.path.splitext(os.path.basename(path))[0]}
    started = time.perf_counter()
    try:
        model, inputs = _load(path)
        p = plan.plan(capture.capture(model, inputs))
    except Exception as error:  # noqa: BLE001 - a problem that cannot be planned is a row too
        row.update(status="not planned", detail="%s: %s" % (type(error).__name__, str(error).splitlines()[0][:200]))
        return row
    nodes = [n for n in p.captured.graph_module.graph.nodes if n.op == "call_function"]
    fused = {m for g in p.groups for m in g.nodes}
    left = [n for n in nodes if opset.kind(n) in _WORK and n not in fused]
    library = Counter(opset.op_name(n.target) or getattr(n.target, "__name__", str(n.target))
                      for n in nodes if opset.kind(n) not in _WORK + (opset.VIEW, opset.CONSTANT))
    row["kernels"] = [("%s x%d" % (p.specs[g.id].template, len(g.nodes)),
                       sorted({v.template or p.specs[g.id].template for v in p.specs[g.id].variants}))
                      for g in p.groups]
    row["aten"] = dict(library)
    row["left"] = ["%s (%s)" % (n.name, next((d.split(": ATen (", 1)[1].rstrip(")") for d in p.decisions
                                               if d.startswith(n.name + " (") and ": ATen (" in d), "not fused"))
                   for n in left]
    row["compile_errors"] = (_compile_all(p) if compile_kernels else []) + _emit_errors(p, path)
    has_work = any(opset.kind(n) in _WORK for n in nodes)
    row["status"] = ("kernels" if p.groups else ("no work outside library ops" if not has_work else "GAP: work left to ATen"))
    if row["compile_errors"]:
        row["status"] = "ERROR"
    row["seconds"] = round(time.perf_counter() - started, 2)
    return row


def markdown(rows, folders):
    counts = Counter(r["status"] for r in rows)
    lines = ["# `kernelwright optimize` coverage without a GPU (%s)" % datetime.date.today().isoformat(), "",
             "torch %s, CPU only; problems built on the meta device at their published sizes from %s." % (
                 torch.__version__, ", ".join(folders)),
             "Each problem captured and planned; generated kernels compiled with NVRTC (sm_90); the emitted and "
             "standalone modules written and compiled as Python; nothing timed.",
             "", "Status counts: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())), "",
             "| problem | status | generated kernels (templates offered) | library ops | pointwise/reduction left to ATen |",
             "|---|---|---|---|---|"]
    for r in rows:
        kernels = "; ".join("%s (%s)" % (k, ", ".join(t)) for k, t in r.get("kernels", [])) or "-"
        aten = ", ".join("%s x%d" % kv if kv[1] > 1 else kv[0] for kv in sorted(r.get("aten", {}).items())) or "-"
        left = "; ".join(r.get("left", [])) or r.get("detail", "-")
        if r.get("compile_errors"):
            left += " / " + "; ".join(r["compile_errors"])
        lines.append("| %s | %s | %s | %s | %s |" % (r["problem"], r["status"], kernels, aten, left.replace("|", "/")))
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--out", help="Markdown report (default: print it)")
    parser.add_argument("--no-compile", action="store_true", help="skip the NVRTC compile")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    compile_kernels = not args.no_compile and nvrtc.available()
    rows = []
    for folder in args.folders:
        for path in problem_files(folder):
            row = examine(path, compile_kernels)
            row["problem"] = "%s/%s" % (os.path.basename(os.path.normpath(folder)), row["problem"])
            print("%-70s %s" % (row["problem"][:70], row["status"]), file=sys.stderr, flush=True)
            rows.append(row)
    text = markdown(rows, [os.path.basename(os.path.normpath(f)) for f in args.folders])
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        print(text)
    return 0 if not any(r["status"] == "ERROR" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

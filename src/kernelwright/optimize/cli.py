"""``kernelwright optimize``: a KernelBench-format problem in, a verified faster ModelNew out.

Importing this module is cheap (no torch): it only registers the subcommand.
"""

import os
import sys

from kernelwright.distributed.common import SchedulerError, where
from kernelwright.harness.cli import add_scheduler_option
from kernelwright.harness.protocol import PRECISIONS

EXIT_CODES = {"pass": 0, "fail": 1, "error": 2, "timeout": 3, "crash": 4}


def register(subparsers):
    p = subparsers.add_parser(
        "optimize", help="compile a Model into a ModelNew with generated CUDA kernels, verified by the harness",
        description="Capture PROBLEM.py's Model with torch.export, fuse its pointwise and reduction ops into "
                    "generated CUDA kernels (each kept only where it measures faster than the ATen ops it "
                    "replaces), judge the result with the harness, and write it only if it passes.",
    )
    p.add_argument("problem", nargs="?", help="problem file defining Model, get_inputs, get_init_inputs")
    p.add_argument("--suite", metavar="DIR", help="optimize every problem file in DIR (e.g. a KernelBench level)")
    p.add_argument("--out", metavar="OUT", help="with --suite: results.jsonl, summary.json, speedups.png, "
                                                "models/ and reports/ (default: kernelwright-optimize)")
    p.add_argument("--timeout", type=float, default=600.0, help="with --suite: seconds per problem (default: 600)")
    add_scheduler_option(p, "problem")
    p.add_argument("-o", "--output", metavar="MODEL_NEW.py",
                   help="where to write ModelNew (default: <problem>_kernelwright.py in the current directory)")
    p.add_argument("--precision", choices=PRECISIONS, default="highest",
                   help="float32 precision for the model and the harness: torch.set_float32_matmul_precision's "
                        "and, at 'highest', cuDNN's TF32 off (default: highest)")
    p.add_argument("--report", metavar="DIR", help="write <problem>.md and <problem>.json there")
    p.add_argument("--standalone", action="store_true",
                   help="write a module that needs only torch (kernels built with torch.utils.cpp_extension."
                        "load_inline on first use), for KernelBench's evaluator; verified as written")
    p.add_argument("--no-verify", action="store_true", help="write the module without running the harness")
    p.add_argument("--json", metavar="OUT.json", help="write the whole record as JSON")
    p.add_argument("--seed", type=int, default=0, help="seed for the model's weights and example inputs (default: 0)")
    p.add_argument("--quiet", action="store_true", help="print only the verdict line")
    p.set_defaults(func=run)
    return p


def run(args):
    from rich.console import Console

    from kernelwright.optimize import fusion_timing
    from kernelwright.optimize.driver import optimize_problem

    console = Console(quiet=args.quiet)
    try:
        fusion_timing.fusion_wait_s()
    except ValueError as error:
        console.print(str(error), markup=False)
        return 2
    if args.suite:
        if args.problem or args.standalone:
            console.print("--suite takes neither PROBLEM nor --standalone", markup=False)
            return 2
        return run_suite(args, console)
    if args.scheduler:
        console.print("--scheduler runs a suite: give --suite DIR", markup=False)
        return 2
    if not args.problem:
        console.print("usage: kernelwright optimize PROBLEM.py [-o OUT.py] | --suite DIR --out OUT", markup=False)
        return 2
    if not os.path.isfile(args.problem):
        console.print("problem file not found: %s" % args.problem, markup=False)
        return 2
    stem = os.path.splitext(os.path.basename(args.problem))[0]
    output = args.output or os.path.join(os.getcwd(), stem + "_kernelwright.py")
    record = optimize_problem(args.problem, output, precision=args.precision, verify=not args.no_verify,
                              seed=args.seed, console=console, report_dir=args.report, json_path=args.json,
                              standalone=args.standalone)
    print("%s: %s — %s" % (stem, record["verdict"], record.get("reason") or ""))
    return EXIT_CODES.get(record["verdict"], 2)


def run_suite(args, console):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from kernelwright.optimize import suite

    out = args.out or os.path.join(os.getcwd(), "kernelwright-optimize")
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console)
    state = {}

    def on_start(total, done):
        state["task"] = progress.add_task("problems", total=total, completed=done)

    def on_result(r):
        progress.advance(state["task"])
        sp = r.get("speedup_vs_eager")
        judged = r.get("judged_by")
        progress.console.print("%-48s %-7s %s  %s%s" % (r["problem"][:48], r["verdict"], "%.2fx" % sp if sp else "-",
                                                       (r.get("reason") or "")[:60],
                                                       "  [%s]" % where(judged) if judged else ""), markup=False)

    try:
        with progress:
            records, summary = suite.run_suite(args.suite, out, args.precision, args.timeout, on_start, on_result,
                                               scheduler=args.scheduler)
    except SchedulerError as error:
        console.print("--scheduler: %s" % error, markup=False)
        return 2
    except ValueError as error:
        console.print("--suite: %s" % error, markup=False)
        return 2
    except KeyboardInterrupt:
        console.print("interrupted; finished problems are in %s and a rerun resumes" % out, markup=False)
        return 130
    ge, gc = summary.get("geomean_speedup_vs_eager"), summary.get("geomean_speedup_vs_compile")
    console.print("%d problems: %s; fast_1 %.3f; geomean %s vs eager, %s vs torch.compile; written to %s" % (
        summary["total"], ", ".join("%d %s" % (n, v) for v, n in sorted(summary["verdicts"].items())),
        summary["fast_1"], "%.3fx" % ge if ge else "-", "%.3fx" % gc if gc else "-", out), markup=False)
    return 0 if summary["verdicts"].get("pass", 0) == summary["total"] else 1


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(prog="kernelwright")
    register(parser.add_subparsers(dest="command"))
    a = parser.parse_args()
    sys.exit(a.func(a) if getattr(a, "func", None) else 2)

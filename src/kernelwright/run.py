"""`kernelwright run`: the bundled problems, each judged by the harness with eager PyTorch,
torch.compile and kernelwright's ModelNew side by side."""

import datetime
import os
import tempfile


def bundled_problems_dir():
    """problems/ shipped inside the package (wheel installs) or beside src/ (a checkout)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "_problems"), os.path.join(here, "..", "..", "problems")):
        if os.path.isdir(candidate):
            return os.path.normpath(candidate)
    raise FileNotFoundError("kernelwright: the bundled problems are missing; reinstall kernelwright")


def problem_names(root):
    return sorted(d for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, "problem.py")))


def register(subparsers):
    from kernelwright.harness.cli import add_eval_options

    p = subparsers.add_parser(
        "run",
        help="evaluate the bundled problems: eager, torch.compile and kernelwright side by side",
        description="Evaluates every bundled problem (or those named) with the harness and writes "
                    "the report (results.jsonl, summary.md, speedups.png) under --out.",
    )
    p.add_argument("--problems", metavar="A,B", help="comma-separated problem names (default: all)")
    p.add_argument("--list", action="store_true", help="list the bundled problems and exit")
    p.add_argument("--out", metavar="DIR", help="report directory (default: kernelwright-report/run-<time>); "
                                                "an existing one resumes where it stopped")
    add_eval_options(p)
    p.set_defaults(func=run)


def run(args):
    from rich.console import Console
    from rich.text import Text

    from kernelwright.harness.cli import cpu_fallback, options_from_args, run_suite

    console = Console(quiet=args.quiet)
    root = bundled_problems_dir()
    names = problem_names(root)
    if args.list:
        print("\n".join(names))
        return 0
    chosen = names if not args.problems else [n.strip() for n in args.problems.split(",") if n.strip()]
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        console.print(Text("unknown problem(s): %s; bundled: %s" % (", ".join(unknown), ", ".join(names)),
                           style="red"))
        return 2

    env = cpu_fallback(args, console, "running the CPU path")
    out = args.out or os.path.join(
        "kernelwright-report", "run-" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    # The harness evaluates a directory: give it one holding just the chosen problems.
    with tempfile.TemporaryDirectory(prefix="kw-run-") as suite:
        for name in chosen:
            os.symlink(os.path.join(root, name), os.path.join(suite, name))
        status = run_suite(suite, out, options_from_args(args, env), console, args.jobs, args.json,
                           title="kernelwright run")
    console.print(Text("report: %s" % os.path.abspath(out)))
    return status

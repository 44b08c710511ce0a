"""``kernelwright eval``: the command-line face of the harness.

Importing this module is cheap (no torch): it is imported for every ``kernelwright``
command just to register the subcommand.
"""

import json
import os
import sys

from rich.text import Text

from kernelwright.distributed.common import LOCAL_CLUSTER, SchedulerError, where
from kernelwright.harness.protocol import PRECISION_ENV, PRECISIONS

EXIT_CODES = {"pass": 0, "fail": 1, "error": 2, "timeout": 3, "crash": 4, "skipped": 5}


def register(subparsers):
    p = subparsers.add_parser(
        "eval",
        help="judge a ModelNew: correct, faster, not cheating",
        description="Evaluate CANDIDATE.py (defining ModelNew) against PROBLEM.py (KernelBench format), "
                    "or every pair in a suite directory with --suite.  Exit status 0 only when every "
                    "verdict is pass.",
    )
    p.add_argument("problem", nargs="?", help="problem file defining Model, get_inputs, get_init_inputs")
    p.add_argument("candidate", nargs="?", help="candidate file defining ModelNew")
    p.add_argument("--suite", metavar="DIR", help="evaluate every (problem, candidate) pair in DIR")
    p.add_argument("--out", metavar="DIR",
                   help="suite output directory: results.jsonl, summary.md, speedups.png (default: "
                        "kernelwright-report/eval-<suite directory's name>); an existing one resumes "
                        "where it stopped")
    add_scheduler_option(p, "evaluation")
    add_eval_options(p)
    p.set_defaults(func=run)
    return p


def add_scheduler_option(p, unit):
    """--scheduler, which `eval --suite` and `optimize --suite` share."""
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --suite: run on the Dask cluster of the scheduler at ADDRESS (e.g. "
                        "tcp://head:8786), one %s per worker offering the resource GPU=1; 'local-cluster' "
                        "starts one on this host, a worker per GPU (needs kernelwright[distributed]; see "
                        "docs/distributed.md)" % unit)


def remote(args):
    """Whether the suite runs on workers elsewhere, whose GPUs this host cannot see."""
    return bool(getattr(args, "scheduler", None)) and args.scheduler != LOCAL_CLUSTER


def add_eval_options(p):
    """The options `eval` shares with commands built on it (`kernelwright run`)."""
    p.add_argument("--json", metavar="OUT.json", help="also write the result (a suite's: the summary) as JSON")
    p.add_argument("--device", choices=["auto", "cuda", "cpu"], default="auto",
                   help="where the workers run; auto: CUDA when there is a GPU")
    p.add_argument("--trials", type=int, default=5, help="seeded draws of get_inputs()")
    p.add_argument("--seed", type=int, help="derive all seeds from this (default: from the OS)")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds for the evaluation after imports")
    p.add_argument("--build-timeout", type=float, default=900.0, help="seconds for importing (and building)")
    p.add_argument("--memory-limit", type=int, metavar="MiB",
                   help="resident memory cap per worker (default: half of physical memory)")
    p.add_argument("--max-error-ratio", type=float,
                   help="fail when error vs float64 exceeds this multiple of the reference error (the eager "
                        "reference's, floored at the unit roundoff --precision allows), in place of the "
                        "precision's own bound: 16 at 'highest', 2 at 'high' and 'medium'")
    p.add_argument("--no-compile", action="store_true", help="skip the torch.compile reference")
    p.add_argument("--atol", type=float,
                   help="absolute tolerance (default: KernelBench's, 1e-4 for float32 outputs at "
                        "'highest', 1e-2 at 'high' and 'medium' and for float16 and bfloat16)")
    p.add_argument("--rtol", type=float, help="relative tolerance (default: as --atol)")
    p.add_argument("--timing-budget", type=float, default=2.0, metavar="S", help="seconds per timed function")
    p.add_argument("--precision", choices=PRECISIONS,
                   help="float32 precision in the workers, torch.set_float32_matmul_precision's and, at "
                        "'highest', cuDNN's TF32 off (default: torch's, 'highest')")
    p.add_argument("--jobs", type=int, help="parallel builds in a suite (default: CPU count)")
    p.add_argument("--keep-workdir", action="store_true", help="keep worker logs and tensors")
    p.add_argument("--no-device-exchange", action="store_true",
                   help="pass GPU tensors between the workers through files, not CUDA IPC handles")
    p.add_argument("--no-redraw-inputs", action="store_true",
                   help="pass the input sets to the candidate worker even when get_inputs() "
                        "reproduces them from their seeds")
    p.add_argument("--no-share", action="store_true",
                   help="in a suite, give every candidate a judge and a torch.compile timing of its own "
                        "(by default each problem's are computed once per GPU and shared by its candidates)")
    p.add_argument("--quiet", action="store_true",
                   help="print nothing; the exit status (and --json) gives the verdict")


def options_from_args(args, env=None):
    """EvalOptions from parsed `eval` flags; `env` adds variables for the workers."""
    from kernelwright.harness.api import EvalOptions

    env = dict(env or {})
    if getattr(args, "precision", None):
        env[PRECISION_ENV] = args.precision
    return EvalOptions(device=args.device, trials=args.trials, seed=args.seed, timeout=args.timeout,
                       build_timeout=args.build_timeout, memory_limit_mb=args.memory_limit,
                       max_error_ratio=args.max_error_ratio, compile=not args.no_compile,
                       atol=args.atol, rtol=args.rtol, timing_budget_s=args.timing_budget,
                       keep_workdir=args.keep_workdir,
                       device_exchange=not args.no_device_exchange,
                       redraw_inputs=not args.no_redraw_inputs, share=not args.no_share, env=env)


def cpu_fallback(args, console, what):
    """Where no GPU will be used, the workers' env for a CPU run: KERNELWRIGHT_PROBLEM_SIZE=small
    unless it is set already, so that the bundled problems, whose KernelBench sizes hold
    tensors of several GiB, run at CPU sizes (other problems do not read it).  Says so, and
    sets ``args.device`` to "cpu"."""
    import torch

    if torch.cuda.is_available() and args.device != "cpu":
        return {}
    why = "--device cpu" if torch.cuda.is_available() else "No CUDA device found"
    args.device = "cpu"
    env = {}
    if "KERNELWRIGHT_PROBLEM_SIZE" not in os.environ:
        env["KERNELWRIGHT_PROBLEM_SIZE"] = "small"
        what += " at the bundled problems' small sizes (KERNELWRIGHT_PROBLEM_SIZE=small)"
    console.print(Text("%s: %s. Timings are CPU timings and say nothing about the CUDA kernels."
                       % (why, what), style="yellow"))
    return env


def run(args):
    from rich.console import Console

    console = Console(stderr=False, quiet=args.quiet)
    if args.suite:
        if args.problem or args.candidate:
            console.print(Text("give either PROBLEM CANDIDATE or --suite DIR, not both", style="red"))
            return 2
        env = {} if remote(args) else cpu_fallback(args, console, "evaluating on the CPU")
        return run_suite(args.suite, args.out, options_from_args(args, env), console, args.jobs, args.json,
                         scheduler=args.scheduler)
    if args.scheduler:
        console.print(Text("--scheduler runs a suite: give --suite DIR", style="red"))
        return 2
    if not (args.problem and args.candidate):
        console.print(Text("usage: kernelwright eval PROBLEM.py CANDIDATE.py [options] | --suite DIR", style="red"))
        return 2
    from kernelwright.harness.api import evaluate
    from kernelwright.harness.report import print_result

    env = cpu_fallback(args, console, "evaluating on the CPU")
    with console.status(Text("evaluating %s" % os.path.basename(args.candidate))):
        result = evaluate(args.problem, args.candidate, options_from_args(args, env))
    print_result(result, console)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return EXIT_CODES.get(result["verdict"], 2)


def run_suite(suite_dir, out_dir, options, console, jobs=None, json_path=None, title="kernelwright eval",
              scheduler=None):
    """Evaluates a suite with a progress bar and prints the table; returns the exit status.
    ``scheduler``: on that Dask cluster (see kernelwright.distributed)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from kernelwright.harness.report import STYLE, print_table
    from kernelwright.harness.suite import SuiteInterrupted, evaluate_suite

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=console, transient=False)
    state = {}

    def on_start(total, done):
        state["task"] = progress.add_task("candidates", total=total, completed=done)

    def on_result(rec):
        progress.advance(state["task"])
        verdict = rec.get("verdict", "error")
        judged = rec.get("judged_by")
        progress.console.print(Text.assemble((rec["id"], "bold"), " ", (verdict, STYLE.get(verdict, "")), "  ",
                                             rec.get("reason") or "", ("  [%s]" % where(judged)) if judged else ""))

    try:
        with progress:
            summary = evaluate_suite(suite_dir, out_dir, options, jobs=jobs,
                                     on_start=on_start, on_result=on_result, scheduler=scheduler)
    except SchedulerError as exc:
        console.print(Text("--scheduler: %s" % exc, style="red"))
        return 2
    except ValueError as exc:
        console.print(Text("--suite: %s" % exc, style="red"))
        return 2
    except SuiteInterrupted as exc:
        console.print(Text(str(exc), style="yellow"))
        return 130
    print_table(summary["results"], console, title)
    console.print("fast_0 %.3f  fast_1 %.3f  fast_2 %.3f  geomean speedup %s" % (
        summary["fast_0"], summary["fast_1"], summary["fast_2"],
        "%.3fx" % summary["geomean_speedup_vs_eager"] if summary["geomean_speedup_vs_eager"] else "-"))
    console.print(Text("measured on: %s" % summary["environment"]))
    console.print(Text("written: %s" % ", ".join(summary["files"].values())))
    if json_path:
        with open(json_path, "w") as f:
            json.dump(summary, f, indent=2)
    # A problem too large for this device is no failure of the candidate (its line says why).
    verdicts = summary["verdicts"]
    ok = summary["total"] > 0 and verdicts.get("pass", 0) + verdicts.get("skipped", 0) == summary["total"]
    return 0 if ok else 1


if __name__ == "__main__":
    from kernelwright.cli import main

    sys.exit(main())

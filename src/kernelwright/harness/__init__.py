"""The evaluation harness: an honest verdict on a KernelBench-style ``ModelNew``.

    from kernelwright.harness import evaluate
    result = evaluate("problem.py", "candidate.py", device="cuda")
    result["verdict"], result["speedup_vs_eager"], result["flags"]

``evaluate_suite`` runs many (problem, candidate) pairs with resumable JSONL output.
Importing this package is cheap; torch is only loaded in worker processes and when
reports are written.  See docs/harness.md.
"""

from kernelwright.harness.api import VERDICTS, EvalOptions, evaluate
from kernelwright.harness.suite import discover, evaluate_suite

__all__ = ["evaluate", "evaluate_suite", "discover", "EvalOptions", "VERDICTS"]

"""The evaluation harness: an honest verdict on a KernelBench-style ``ModelNew``.

    from kernelwright.harness import evaluate
    result = evaluate("problem.py", "candidate.py", device="cuda")
    result["verdict"], result["speedup_vs_eager"], result["flags"]

``evaluate_suite`` runs many (problem, candidate) pairs with resumable JSONL output.
Importing this package is cheap; torch is only loaded in worker processes and when
reports are written.  See docs/harness.md.

Where things are.  In this process (no torch): ``api`` (options, ``evaluate``), ``session``
(the two workers of an evaluation; what a suite shares per problem), ``verdict`` (the rules
that turn reports into a verdict), ``suite``, ``report``, ``cli``, ``process`` (starting,
watching and killing workers), ``protocol`` (the messages), ``flags``.  In the workers
(``worker`` is their entry point): ``judge`` and ``references`` (the problem only),
``candidate`` and ``candidate_timing``, ``build``; the checks and tools they share:
``anticheat``, ``compare``, ``inputs``, ``exchange`` and ``handles`` (tensors between the
workers), ``fit``, ``roofline``, ``kernels``, ``plumbing``, ``loading``, ``proctree``.
"""

from kernelwright.harness.api import VERDICTS, EvalOptions, evaluate
from kernelwright.harness.suite import discover, evaluate_suite

__all__ = ["evaluate", "evaluate_suite", "discover", "EvalOptions", "VERDICTS"]

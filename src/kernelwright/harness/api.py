"""``evaluate(problem, candidate)``: the verdict on one candidate, as a JSON-ready dict.

The harness's own interpreter never imports the problem or the candidate.  Two worker
processes do (see worker.py): the *judge*, which runs only the problem and owns the
reference results, and the *candidate* worker, which runs the candidate and the timed
references.  session.py starts them and relays what passes between them (the candidate's
outputs, and the input sets where both cannot draw them from their seeds) through files or
CUDA IPC handles, enforcing time and memory limits; verdict.py turns what they report into
a verdict.
"""

from dataclasses import asdict, dataclass, field, fields
from typing import Dict, Optional

from kernelwright.harness.session import evaluate_with

# "skipped": the problem does not fit the memory there is (fit.py); nothing of it ran.
VERDICTS = ("pass", "fail", "error", "timeout", "crash", "skipped")


@dataclass
class EvalOptions:
    """Everything ``evaluate`` can be told; the CLI flags map one to one."""

    device: str = "auto"
    trials: int = 5
    seed: Optional[int] = None
    timeout: float = 300.0
    build_timeout: float = 900.0
    memory_limit_mb: Optional[int] = None
    max_error_ratio: Optional[float] = None
    compile: bool = True
    atol: Optional[float] = None
    rtol: Optional[float] = None
    timing_budget_s: float = 2.0
    min_reps: int = 20
    max_reps: int = 5000
    warmup: int = 3
    warmup_ms: float = 100.0
    target_rse: float = 0.01
    timing_rounds: int = 6
    escape_abs_ms: float = 0.02
    escape_rel: float = 0.15
    max_input_bytes: int = 4 << 30
    reference_cache_bytes: int = 1 << 30
    reference_host_bytes: Optional[int] = None
    reference_budget_s: Optional[float] = 12.0
    recheck_sample_elements: int = 1 << 20
    build_dir: Optional[str] = None
    workdir: Optional[str] = None
    keep_workdir: bool = False
    device_exchange: bool = True
    redraw_inputs: bool = True
    # A suite: one judge (input sets, float64 references) and one torch.compile timing per
    # problem on each GPU, served to its candidates in turn (session.py).
    share: bool = True
    env: Dict[str, str] = field(default_factory=dict)

    @classmethod
    def make(cls, options=None, **overrides):
        base = asdict(options) if options is not None else {}
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - names)
        if unknown:
            raise TypeError("unknown evaluate() option(s): %s" % ", ".join(unknown))
        base.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**base)


def evaluate(problem, candidate, options=None, **overrides):
    """Evaluate ``candidate`` (a file defining ``ModelNew``) on ``problem`` (KernelBench format).

    Returns a dict: ``verdict`` (pass, fail, error, timeout, crash), ``reason``, ``flags``,
    errors against float64, timings and speedups, the kernels that ran, and environment.
    Options are :class:`EvalOptions` fields, given as an object and/or keywords.
    """
    return evaluate_with(problem, candidate, EvalOptions.make(options, **overrides))

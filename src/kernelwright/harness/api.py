"""``evaluate(problem, candidate)``: the verdict on one candidate, as a JSON-ready dict.

The harness's own interpreter never imports the problem or the candidate.  Two worker
processes do (see worker.py): the *judge*, which runs only the problem and owns the
reference results, and the *candidate* worker, which runs the candidate and the timed
references.  This module starts them, relays what passes between them (the candidate's
outputs, and the input sets where both cannot draw them from their seeds) through files
or CUDA IPC handles, enforces time and memory limits, and turns what they report into a
verdict.
"""

import json
import math
import os
import random
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Dict, Optional

from kernelwright.harness import exchange
from kernelwright.harness.process import Worker, WorkerFailure
from kernelwright.harness.protocol import Cause, Command, Event, Role

# "skipped": the problem does not fit the memory there is (fit.py); nothing of it ran.
VERDICTS = ("pass", "fail", "error", "timeout", "crash", "skipped")

# One seed per adversarial input variant, with room to spare: their list (inputs.VARIANTS)
# lives with torch, which this module does not import.
VARIANT_SEEDS = 8

_UNIT_ROUNDOFF = {"float64": 2.0**-53, "float32": 2.0**-24, "float16": 2.0**-11, "bfloat16": 2.0**-8}

# The precision contract (docs/harness.md, "Precision"): a candidate's error against float64
# may be at most PRECISION_RATIO times the reference error, the larger of the eager
# reference's own error and a floor.  The floor is the unit roundoff of the output dtype and,
# for float32 outputs, of the arithmetic torch.set_float32_matmul_precision allows: float32
# at 'highest', TF32 (10 mantissa bits, as float16) at 'high', bfloat16 at 'medium'.
PRECISION_ROUNDOFF = {"highest": 2.0**-24, "high": 2.0**-11, "medium": 2.0**-8}
PRECISION_ROUNDOFF_NAME = {"highest": "float32", "high": "TF32", "medium": "bfloat16"}
# 'highest': honest float32 candidates in the recorded runs reach 2.1x eager's error, TF32 and
# float16 inside reach 122-304x; 16 is about the geometric middle.  'high' and 'medium':
# honest candidates of the class reach 0.6-0.85 of the floor, the next class down is 8x
# (bfloat16 against TF32) or 16x (float8 against bfloat16) above it; 2 splits the first gap.
# benchmarks/precision_evidence.py prints the measurements.
PRECISION_RATIO = {"highest": 16.0, "high": 2.0, "medium": 2.0}
# float16 and bfloat16 outputs, at any float32 matmul precision (it governs float32 alone):
# honest candidates reach 0.43-0.75 of the floor, float16 accumulation inside 19x and more.
HALF_RATIO = 4.0


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
    recheck_sample_elements: int = 1 << 20
    build_dir: Optional[str] = None
    workdir: Optional[str] = None
    keep_workdir: bool = False
    device_exchange: bool = True
    redraw_inputs: bool = True
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


def default_memory_limit_mb():
    """Half of physical memory: enough for any sane candidate, never the whole machine."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 / (1 << 20))
    except (ValueError, OSError):
        return 16384


def sanitize(obj):
    """JSON has no NaN or Infinity: report them as null."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): sanitize(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [sanitize(v) for v in obj]
    return obj


def _seeds(opts):
    rng = random.Random(opts.seed) if opts.seed is not None else random.SystemRandom()
    draw = lambda: rng.randrange(1, 2**31 - 1)  # noqa: E731
    return {"init_seed": draw(), "trial_seeds": [draw() for _ in range(max(1, opts.trials))],
            "variant_seeds": [draw() for _ in range(VARIANT_SEEDS)]}


def _describe_flags(flags):
    from kernelwright.harness.anticheat import FATAL_FLAGS

    fatal = [f for f in flags if f in FATAL_FLAGS]
    return "; ".join("%s: %s" % (f, flags[f]) for f in fatal)


def _merge(a, b):
    if a is None:
        return dict(b) if b else None
    if not b:
        return a
    return {k: max(a[k], b[k]) for k in a}


def _verdict(result, prepared, cand, judged, rechecked, tampered, opts):
    from kernelwright.harness import roofline
    from kernelwright.harness.anticheat import FATAL_FLAGS

    flags = dict(cand.get("flags") or {})
    if tampered:  # the judge's own sets changed while shared (see handles.py)
        flags["tampered_harness"] = tampered
    sets = judged["results"]
    failing = [n for n, r in sets.items() if not r.get("ok")]
    base_failing = [n for n in failing if n.startswith("trial")]
    variant_failing = [n for n in failing if not n.startswith("trial")]
    if variant_failing and not base_failing:
        flags["adversarial_inputs_failed"] = "wrong on %s, right on every get_inputs() draw" % ", ".join(variant_failing)

    cand_err = eager_err = None
    for r in sets.values():
        cand_err = _merge(cand_err, r.get("cand"))
        eager_err = _merge(eager_err, r.get("eager"))
    fp64 = prepared.get("fp64") not in (None, "unavailable")
    precision = prepared.get("float32_matmul_precision") or "highest"
    ratio = allowed = None
    if fp64 and cand_err and eager_err:
        check = precision_check(cand_err["rel_l2"], eager_err["rel_l2"], prepared.get("output_dtypes"),
                                precision, opts.max_error_ratio)
        ratio, allowed = check["ratio"], check["allowed"]
        # A large error that fails the tolerance is a wrong answer, not a sign of rounding.
        rounding = not failing or cand_err["rel_l2"] < 0.03
        if check["flag"] and (rounding or check["flag"] == "exceeds_error_ratio"):
            flags[check["flag"]] = check["why"]
        if check["note"]:
            result["notes"].append(check["note"])

    stale = [r for r in rechecked if not r.get("ok")]
    if stale and not failing:
        flags["stale_output"] = "%d of %d re-checked timed calls wrong (first: call %s: %s)" % (
            len(stale), len(rechecked), stale[0].get("call"), stale[0].get("reason"))

    kern = cand.get("kernels") or {}
    if "custom_kernel_count" in kern and kern["custom_kernel_count"] == 0:
        flags["no_custom_kernels"] = "all %d kernels were library kernels" % kern.get("kernel_count", 0) \
            if result["device"].startswith("cuda") else "no native code from the candidate ran"

    timings = cand.get("timings") or {}
    costs = {side: _cost_per_call(timings, side) for side in ("eager", "compile", "candidate")}
    result["cost_basis"] = {side: basis for side, (_, basis) in costs.items() if basis}

    def median(name):
        return (timings.get(name) or {}).get("median_ms")

    for ref, key in (("eager", "speedup_vs_eager"), ("compile", "speedup_vs_compile")):
        result[key] = _ratio(costs[ref][0], costs["candidate"][0])
        if result["device"].startswith("cuda"):  # on the CPU the host clock's figure is the headline
            result[key + "_idle"] = _ratio(median(ref), median("candidate"))
        result[key + "_device"] = _ratio(median(ref + "_device"), median("candidate_device"))

    host_bound = []
    for side in ("eager", "candidate"):
        gated = timings.get(side + "_device") or {}
        if costs[side][1] == "pipelined" and (gated.get("host_median_ms") or 0) > gated["median_ms"]:
            host_bound.append("%s: %.1f us of host work per call against %.1f us on the device" % (
                side, 1e3 * gated["host_median_ms"], 1e3 * gated["median_ms"]))
    if host_bound:
        flags["host_bound"] = "%s; speedup_vs_eager follows the host's speed, speedup_vs_eager_device does not" % (
            "; ".join(host_bound))

    timed = {k: v for k, v in timings.items() if k not in ("baseline", "baseline_end", "baseline_gated")}
    work = prepared.get("work") or {}
    result.update(roofline.result_fields(work, timed, cand.get("ceiling")))
    result.update(
        design=cand.get("design"),
        flags=sorted(flags),
        flag_details=flags,
        error_vs_fp64=cand_err if fp64 else None,
        reference_error_vs_fp64=eager_err if fp64 else None,
        error_ratio=ratio,
        allowed_error_ratio=allowed,
        precision=precision,
        timings=timed,
        timing_overhead=timings.get("baseline"),
        timing_overhead_end=timings.get("baseline_end"),
        timing_overhead_gated=timings.get("baseline_gated"),
        kernels=kern or None,
        weights=cand.get("weights"),
        import_s=cand.get("import_s"),
        compile_s=cand.get("compile_s"),
        # How the GPU tensors went between the workers: by CUDA IPC handle or through files.
        exchange={"input_sets": len(sets), "input_sets_redrawn": prepared.get("sets_redrawn", 0),
                  "input_sets_by_handle": prepared.get("sets_by_handle", 0),
                  "outputs_by_handle": cand.get("outputs_by_handle", 0)},
        correctness={
            "sets": sets,
            "fp64_reference": prepared.get("fp64"),
            "dropped_variants": prepared.get("dropped"),
            "rechecked_timed_calls": len(rechecked),
            "rechecks_sampled": sum(1 for r in rechecked if r.get("sampled")),
            "rechecks_failed": len(stale),
        },
    )
    drift = _launch_drift(timings.get("baseline"), timings.get("baseline_end"))
    if drift:
        result["notes"].append(drift)
    result["notes"] += [n for n in (prepared.get("fp64_note"), work.get("note")) if n] \
        + list(prepared.get("notes") or []) + list(cand.get("notes") or [])
    if prepared.get("dropped"):
        result["notes"].append("variants dropped (reference not finite on them): %s" % ", ".join(prepared["dropped"]))

    fatal = {f: d for f, d in flags.items() if f in FATAL_FLAGS}
    if failing:
        first = failing[0]
        result["verdict"] = "fail"
        result["reason"] = "wrong output on %s: %s" % (first, sets[first].get("reason"))
        if len(failing) > 1:
            result["reason"] += " (%d of %d input sets wrong)" % (len(failing), len(sets))
    elif fatal:
        result["verdict"] = "fail"
        result["reason"] = _describe_flags(fatal)
    else:
        result["verdict"] = "pass"
        sp = result.get("speedup_vs_eager")
        result["reason"] = "correct on %d input sets%s" % (
            len(sets), "; %.3gx vs eager" % sp if sp else "")


def precision_bound(output_dtypes, precision):
    """(floor, what the floor is, allowed ratio) of the precision contract for outputs of
    ``output_dtypes`` (names; non-floating ones are ignored) at the float32 matmul
    ``precision``.  That precision governs float32 only: a problem without float32 outputs
    keeps its dtype's floor, and ``HALF_RATIO`` (float16, bfloat16) or the 'highest' ratio."""
    dtypes = [d for d in output_dtypes or () if d in _UNIT_ROUNDOFF] or ["float32"]
    if precision not in PRECISION_RATIO:
        raise ValueError("unknown float32 matmul precision %r" % (precision,))
    floors = [(PRECISION_ROUNDOFF[precision], "%s unit roundoff" % PRECISION_ROUNDOFF_NAME[precision])
              if d == "float32" else (_UNIT_ROUNDOFF[d], "%s unit roundoff" % d) for d in dtypes]
    floor, name = max(floors)
    if "float32" in dtypes:
        return floor, name, PRECISION_RATIO[precision]
    if {"float16", "bfloat16"} & set(dtypes):
        return floor, name, HALF_RATIO
    return floor, name, PRECISION_RATIO["highest"]


def precision_check(cand_rel, eager_rel, output_dtypes, precision, max_error_ratio=None):
    """The precision contract on relative errors against float64 (``rel_l2``).

    Returns {"ratio": candidate's error / reference error, "allowed": the ratio allowed,
    "flag": None or the failing flag, "why": its detail, "note": None or a line for the
    result's notes}.  ``max_error_ratio``, where given, replaces the allowed ratio; the flag is
    then ``exceeds_error_ratio``, else ``reduced_precision``.
    """
    floor, floor_name, default = precision_bound(output_dtypes, precision)
    reference = max(eager_rel, floor)
    ratio = cand_rel / reference
    allowed = default if max_error_ratio is None else max_error_ratio
    if eager_rel >= floor:
        of = "%sx eager's" % _num(ratio)
    else:
        of = "%sx the %s %s (eager's error, %s, is below it)" % (_num(ratio), floor_name, _sci(floor), _sci(eager_rel))
    error = "error %s vs float64 is %s" % (_sci(cand_rel), of)
    out = {"ratio": ratio, "allowed": allowed, "flag": None, "why": None, "note": None}
    if ratio > allowed and max_error_ratio is None:
        out["flag"] = "reduced_precision"
        out["why"] = "computes below the requested precision '%s': %s (allowed %gx for '%s')" % (
            precision, error, allowed, precision)
    elif ratio > allowed:
        out["flag"] = "exceeds_error_ratio"
        out["why"] = "%s (allowed %gx by max_error_ratio)" % (error, allowed)
    elif ratio > default:
        out["note"] = "%s, above the %gx that precision '%s' allows; passed under max_error_ratio %g" % (
            error, default, precision, allowed)
    return out


def _sci(x):
    """2 significant digits, exponent unpadded: 3.1e-4."""
    if not math.isfinite(x) or x == 0:
        return "%g" % x
    mantissa, exponent = ("%.1e" % x).split("e")
    return "%se%d" % (mantissa, int(exponent))


def _num(x):
    """A ratio: 3 significant digits below 100, whole from there to 10^6: 4.2, 304, 29164."""
    return "%.0f" % x if 100 <= x < 1e6 else "%.3g" % x


def _cost_per_call(timings, side):
    """(ms, basis): what one call of ``side`` costs.  "pipelined", where the gated rounds
    measured it: the larger of its device and host times, as a caller that keeps the GPU fed
    pays per call; "idle", its time from an idle GPU, where they did not (the CPU, no gate) or
    where the call waited on the device itself and so cannot run ahead of it."""
    gated, idle = timings.get(side + "_device"), timings.get(side)
    if gated and gated.get("pipelined_median_ms") and not gated.get("gate_timeouts"):
        return gated["pipelined_median_ms"], "pipelined"
    if idle:
        return idle["median_ms"], "idle"
    return None, None


def _ratio(a, b):
    return a / b if a and b and b > 0 else None


def _launch_drift(before, after, limit=1.25):
    """A note when the launch latency of a tiny op moved by more than ``limit`` during timing:
    a call whose time is mostly host work then reads faster or slower with the host's speed."""
    if not before or not after or min(before["median_ms"], after["median_ms"]) <= 0:
        return None
    a, b = before["median_ms"], after["median_ms"]
    if max(a, b) / min(a, b) <= limit:
        return None
    return ("launch latency of a tiny op moved from %.1f to %.1f us during timing: speedups of calls "
            "dominated by host time follow the host's speed" % (a * 1e3, b * 1e3))


def evaluate(problem, candidate, options=None, **overrides):
    """Evaluate ``candidate`` (a file defining ``ModelNew``) on ``problem`` (KernelBench format).

    Returns a dict: ``verdict`` (pass, fail, error, timeout, crash), ``reason``, ``flags``,
    errors against float64, timings and speedups, the kernels that ran, and environment.
    Options are :class:`EvalOptions` fields, given as an object and/or keywords.
    """
    opts = EvalOptions.make(options, **overrides)
    t_start = time.monotonic()
    result = _evaluate(problem, candidate, opts)
    if result.get("cause") == Cause.INPUTS_NOT_REPRODUCED:
        # get_inputs() depends on something besides its seeds that differs between processes:
        # the same evaluation again, with the sets passed to the candidate worker.
        first = result["reason"]
        result = _evaluate(problem, candidate, EvalOptions.make(opts, redraw_inputs=False))
        result["notes"].insert(0, "input sets passed through files: %s" % first)
    result["elapsed_s"] = time.monotonic() - t_start
    return result


def _evaluate(problem, candidate, opts):
    t_start = time.monotonic()
    problem, candidate = os.path.abspath(problem), os.path.abspath(candidate)
    result = {
        "problem": problem, "candidate": candidate, "verdict": "error", "reason": "",
        "flags": [], "flag_details": {}, "error_vs_fp64": None, "reference_error_vs_fp64": None,
        "error_ratio": None, "allowed_error_ratio": None, "precision": None, "cudnn_allow_tf32": None,
        "speedup_vs_eager": None, "speedup_vs_compile": None,
        "speedup_vs_eager_idle": None, "speedup_vs_compile_idle": None,
        "speedup_vs_eager_device": None, "speedup_vs_compile_device": None, "cost_basis": {}, "timings": {},
        "flops": None, "bytes": None, "gbps": None, "tflops": None, "ceiling": None,
        "fraction_of_ceiling": None, "bound_by": None, "bound": None, "design": None,
        "device": opts.device, "device_name": None, "torch_version": None, "cuda_version": None,
        "python_version": None, "notes": [], "log_tail": None, "phase": None, "cause": None,
    }
    for path, what in ((problem, "problem"), (candidate, "candidate")):
        if not os.path.isfile(path):
            result["reason"] = "%s file not found: %s" % (what, path)
            return result

    mem = opts.memory_limit_mb or default_memory_limit_mb()
    own_workdir = opts.workdir is None
    workdir = tempfile.mkdtemp(prefix="kw-eval-") if own_workdir else opts.workdir
    os.makedirs(workdir, exist_ok=True)
    env = dict(os.environ)
    env.update(opts.env or {})
    if opts.build_dir:
        env["TORCH_EXTENSIONS_DIR"] = os.path.abspath(opts.build_dir)
    seeds = _seeds(opts)
    result["seeds"] = seeds
    limits = dict(memory_limit_mb=mem, build_timeout=opts.build_timeout, timeout=opts.timeout)
    space = judge = cand = None
    try:
        # Tensors go to private directories in /dev/shm and the temp directory (see
        # exchange.py), removed below however the evaluation ends; the work directory keeps
        # the logs, and the tensors too only when asked to.
        space = exchange.Space(workdir if opts.keep_workdir else None)
        common = dict(problem=problem, candidate=candidate, device=opts.device, workdir=workdir,
                      memory_limit_mb=mem, atol=opts.atol, rtol=opts.rtol, exchange_dirs=space.dirs,
                      keep_files=opts.keep_workdir, device_exchange=opts.device_exchange,
                      redraw_inputs=opts.redraw_inputs, **seeds)
        judge_job = dict(common, role=Role.JUDGE, max_input_bytes=opts.max_input_bytes,
                         reference_cache_bytes=opts.reference_cache_bytes,
                         reference_host_bytes=opts.reference_host_bytes)
        cand_job = dict(common, role=Role.CANDIDATE, compile=opts.compile,
                        escape_abs_ms=opts.escape_abs_ms, escape_rel=opts.escape_rel,
                        recheck_sample_elements=opts.recheck_sample_elements,
                        timing=dict(warmup=opts.warmup, warmup_ms=opts.warmup_ms, min_reps=opts.min_reps,
                                    max_reps=opts.max_reps, budget_s=opts.timing_budget_s,
                                    target_rse=opts.target_rse, rounds=opts.timing_rounds))
        judge = Worker(Role.JUDGE, judge_job, workdir, env, **limits)
        cand = Worker(Role.CANDIDATE, cand_job, workdir, env, **limits)
        prepared = judge.wait_for(Event.PREPARED, others=[cand])
        for key in ("device", "device_name", "torch_version", "cuda_version", "python_version", "cudnn_allow_tf32"):
            result[key] = prepared.get(key)
        if prepared.get("does_not_fit"):
            result.update(verdict="skipped", reason=prepared["does_not_fit"]["reason"],
                          does_not_fit=prepared["does_not_fit"])
        else:
            _judge_candidate(judge, cand, prepared, result, opts)
    except WorkerFailure as f:
        who = "reference (problem file)" if f.worker == Role.JUDGE else "candidate"
        if str(f.details.get("cause") or "").startswith(Cause.HARNESS):
            who = "harness (in the %s worker)" % f.worker
        result["verdict"] = f.verdict
        reason = f.reason
        if f.details.get("cause") == Cause.OUT_OF_MEMORY and "out of memory" not in reason.lower():
            reason = "out of memory: " + reason  # e.g. the allocator's "can't allocate memory"
        if f.details.get("cause") == Cause.EXCHANGE_SPACE and opts.keep_workdir:
            reason += " (keep_workdir keeps every exchanged file, so none was freed on the way)"
        result["reason"] = "%s, %s: %s" % (who, f.phase, reason)
        result["phase"] = f.phase
        result["cause"] = f.details.get("cause")
        result["log_tail"] = f.log_tail
        if f.details.get("traceback"):
            result["traceback"] = f.details["traceback"]
    finally:
        for w in (cand, judge):
            if w is not None:
                w.close()
                result.setdefault("peak_rss_mb", {})[w.name] = round(w.peak_rss_mb, 1)
                result.setdefault("phase_s", {})[w.name] = {
                    k: round(v, 3) for k, v in w.phase_s.items()}
        if result["verdict"] not in ("pass", "skipped") and result["log_tail"] is None and cand is not None:
            result["log_tail"] = cand.log_tail()
        # After the workers are dead: nothing writes to the directories any more.
        if space is not None:
            space.close()
        if own_workdir and not opts.keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            result["workdir"] = workdir
    result["elapsed_s"] = time.monotonic() - t_start
    result["options"] = {k: v for k, v in asdict(opts).items() if k != "env"}
    return sanitize(result)


def _judge_candidate(judge, cand, prepared, result, opts):
    """The evaluation once the judge has prepared its references: the candidate's outputs
    judged, its timing, the re-checks, then the verdict in ``result``."""
    cand.wait_for(Event.READY, others=[judge])
    cand.send(Command.GO + " " + json.dumps({
        "inputs": prepared["path"],
        "reference_mutates_inputs": prepared["reference_mutates_inputs"],
        "reference_aliases_inputs": prepared["reference_aliases_inputs"],
        "reference_output_types": prepared.get("output_types"),
        "handle_budget": prepared.get("handle_budget", 0),
        "dtype": (prepared.get("work") or {}).get("dtype", "float32"),
    }))
    # The outputs are judged before the candidate goes on, so that they and the input
    # sets only the judge needed are gone before the timed calls' outputs are written.
    outputs = cand.wait_for(Event.OUTPUTS, others=[judge])["outputs"]
    judge.send(Command.JUDGE + " " + json.dumps(outputs))
    judged = judge.wait_for(Event.JUDGED, others=[cand])
    cand.resume(Command.CONTINUE)
    cres = cand.wait_for(Event.RESULT, others=[judge])
    judge.send(Command.RECHECK + " " + json.dumps(cres["rechecks"]))
    rechecked = judge.wait_for(Event.RECHECKED)
    judge.send(Command.EXIT)
    _verdict(result, prepared, cres, judged, rechecked["results"], rechecked.get("tampered"), opts)

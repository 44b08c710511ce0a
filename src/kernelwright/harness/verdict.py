"""The verdict on one candidate, from what its workers reported: the precision contract, the
flags, the costs per call and the speedups.  Pure functions of the reports; nothing here
starts a process or imports torch.
"""

import math

from kernelwright.harness import roofline
from kernelwright.harness.flags import FATAL_FLAGS

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


def _describe_flags(flags):
    fatal = [f for f in flags if f in FATAL_FLAGS]
    return "; ".join("%s: %s" % (f, flags[f]) for f in fatal)


def _merge(a, b):
    if a is None:
        return dict(b) if b else None
    if not b:
        return a
    return {k: max(a[k], b[k]) for k in a}


def decide(result, prepared, cand, judged, rechecked, tampered, opts):
    """Fill ``result`` (verdict, reason, flags, errors, speedups) from the judge's ``prepared``
    and ``judged`` reports, the candidate worker's ``cand`` and the re-checks."""
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
    costs = {side: cost_per_call(timings, side) for side in ("eager", "compile", "candidate")}
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
    drift = launch_drift(timings.get("baseline"), timings.get("baseline_end"))
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


def cost_per_call(timings, side):
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


def launch_drift(before, after, limit=1.25):
    """A note when the launch latency of a tiny op moved by more than ``limit`` during timing:
    a call whose time is mostly host work then reads faster or slower with the host's speed."""
    if not before or not after or min(before["median_ms"], after["median_ms"]) <= 0:
        return None
    a, b = before["median_ms"], after["median_ms"]
    if max(a, b) / min(a, b) <= limit:
        return None
    return ("launch latency of a tiny op moved from %.1f to %.1f us during timing: speedups of calls "
            "dominated by host time follow the host's speed" % (a * 1e3, b * 1e3))


def borrow_compile(timings, shared):
    """Add the torch.compile reference another candidate's worker timed (``shared``: its
    timings of "eager", "compile" and their gated variants) to ``timings``, each time scaled
    by how this worker's eager reference compares with that worker's: torch.compile's ratio
    to eager is the problem's, measured once; the candidate's ratio to eager is measured side
    by side here.  Returns the eager drift (this worker's eager median over that one's), or
    None where nothing was borrowed."""
    drift = None
    for eager_key, key in (("eager", "compile"), ("eager_device", "compile_device")):
        here, there, compiled = timings.get(eager_key), shared.get(eager_key), shared.get(key)
        if not (here and there and compiled) or key in timings:
            continue
        scaled = dict(compiled)
        for f, x in compiled.items():
            if not f.endswith("_ms") or not isinstance(x, (int, float)):
                continue
            a, b = here.get(f), there.get(f)
            if not (isinstance(a, (int, float)) and isinstance(b, (int, float)) and a > 0 and b > 0):
                a, b = here["median_ms"], there["median_ms"]
            scaled[f] = x * a / b
        scaled["borrowed_scale"] = here["median_ms"] / there["median_ms"]
        timings[key] = scaled
        if eager_key == "eager":
            drift = scaled["borrowed_scale"]
    return drift

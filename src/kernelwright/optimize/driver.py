"""One problem file end to end: load, optimize, verify with the harness, write, report."""

import datetime
import gc
import json
import os
import shutil
import tempfile
import time

import torch

from kernelwright import precision as precision_contract
from kernelwright.harness import compile_ahead
from kernelwright.harness.api import EvalOptions
from kernelwright.harness.inputs import construct, draw_inputs
from kernelwright.harness.protocol import PRECISION_ENV, Cause, Role
from kernelwright.harness.session import Spares, evaluate_with

from . import api, report
from .capture import CaptureError


# Past this the reference's compile is left to the harness's worker, as without compile_ahead.
_COMPILE_AHEAD_WAIT_S = 120.0


def _load_problem(path, seed, device):
    module = api.load_module(path, "kw_problem_%d" % os.getpid())
    model = construct(module.Model, module.get_init_inputs(), seed, device)
    # Drawn on the GPU, as the harness draws them: gigabytes drawn on the CPU took 10-24 s.
    inputs = [x.to(device) if isinstance(x, torch.Tensor) else x
              for x in draw_inputs(module.get_inputs, seed + 1, device)]
    return model, inputs


class _ProblemError(Exception):
    """The problem could not be optimized at all; the message is the record's reason."""


def _optimize(problem, source, seed, device, seconds):
    t = time.perf_counter()
    try:
        model, inputs = _load_problem(problem, seed, device)
    except Exception as error:  # the user's file: any exception is theirs to see
        raise _ProblemError("the problem file failed to load: %s: %s" % (type(error).__name__, error)) from error
    seconds["load"] = time.perf_counter() - t
    try:
        return api.optimize(model, inputs, problem_source=source, problem_name=os.path.basename(problem), device=device)
    except CaptureError as error:
        raise _ProblemError("not captured as one graph (%s)%s" % (error, " at " + error.where if error.where else "")) from error


def optimize_problem(problem, output, *, precision="highest", verify=True, seed=0, console=None,
                     report_dir=None, json_path=None, eval_options=None, standalone=False):
    """The record of one problem: verdict, reason, speedups, per-kernel figures, decisions.
    ``standalone``: write (and verify) the module that needs only torch."""
    started = time.perf_counter()
    stem = os.path.splitext(os.path.basename(problem))[0]
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    record = {"problem": stem, "path": os.path.abspath(problem), "output": None, "verdict": "error",
              "reason": "", "device": str(device), "precision": precision, "kernels": [], "decisions": [],
              "seconds": {}, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              "torch_version": torch.__version__, "standalone": standalone}
    if device.type == "cuda":
        record["device_name"] = torch.cuda.get_device_name(device)
    options = EvalOptions.make(eval_options, env={PRECISION_ENV: precision}) if verify else None
    # The harness's two workers import torch while the problem is optimized; they take their jobs
    # when the candidate is written.
    spares = Spares(tempfile.mkdtemp(prefix="kw-spares-"), options, ahead={Role.CANDIDATE: 1, Role.JUDGE: 1},
                    refill=False) if verify else None
    # The harness's torch.compile reference, compiled meanwhile into inductor's caches.
    ahead = (compile_ahead.start(problem, device, precision)
             if options is not None and options.compile and device.type == "cuda" else None)
    try:
        with precision_contract.contract(precision):
            _optimize_and_verify(record, problem, output, options, spares, seed, console, standalone, ahead)
    finally:
        compile_ahead.finish(ahead, 0)
        if spares is not None:
            spares.close()
    return _finish(record, started, console, report_dir, json_path)


def _optimize_and_verify(record, problem, output, options, spares, seed, console, standalone, ahead=None):
    """Fills ``record`` in: what was generated and kept, then the harness's verdict (``options``
    None: not verified; ``ahead``: the compile_ahead process, finished before the harness times)."""
    stem, device = record["problem"], torch.device(record["device"])
    with open(problem) as f:
        source = f.read()
    status = console.status("optimizing %s" % stem) if console is not None else None
    if status:
        status.start()
    try:
        optimized = _optimize(problem, source, seed, device, record["seconds"])
    except _ProblemError as error:
        record["reason"] = str(error)
        return
    finally:
        if status:
            status.stop()
    # The harness's workers need the device's memory: the model and its activations go first.
    gc.collect()
    if device.type == "cuda":
        torch.cuda.empty_cache()
    record["seconds"].update(optimized.seconds)
    _record_choices(record, optimized)
    record["copy_gbps"] = optimized.copy_gbps
    record["end_to_end_ms"] = optimized.end_to_end
    record["notes"] = optimized.notes
    if console is not None and record["kernels"]:
        console.print(report.table(record["kernels"]))
    workdir = tempfile.mkdtemp(prefix="kw-optimize-")
    try:
        candidate = optimized.write(os.path.join(workdir, stem + "_kernelwright.py"), standalone=standalone)
        if options is not None:
            t = time.perf_counter()
            record["seconds"]["compile_ahead_wait"] = compile_ahead.finish(ahead, _COMPILE_AHEAD_WAIT_S)
            result = _verified(problem, candidate, options, spares, console)
            # A forward the harness fails is not the end: the next safer one is tried, and the
            # record keeps each failure and what replaced it.
            while _failed_by_candidate(result):
                replaced_by = _fall_back(optimized, result["reason"])
                if replaced_by is None:
                    break
                record.setdefault("fallbacks", []).append(
                    {"verdict": result["verdict"], "reason": result["reason"], "then": replaced_by})
                if console is not None:
                    console.print("the harness failed the forward (%s); trying %s" % (result["reason"], replaced_by),
                                  markup=False)
                candidate = optimized.write(candidate, standalone=standalone)
                result = _verified(problem, candidate, options, None, console)
            if record.get("fallbacks"):
                _record_choices(record, optimized)
            record["seconds"]["verify"] = time.perf_counter() - t
            for key in ("verdict", "reason", "flags", "speedup_vs_eager", "speedup_vs_compile",
                        "speedup_vs_eager_device", "speedup_vs_compile_device", "error_vs_fp64",
                        "reference_error_vs_fp64", "error_ratio", "device_name", "torch_version", "cuda_version",
                        "cudnn_allow_tf32"):
                record[key] = result.get(key)
            # Where the verification's time goes, per worker and phase (it is most of a problem's),
            # and what the harness said of how it verified (fewer input sets for a large problem).
            record["verify_phase_s"] = result.get("phase_s")
            record["verify_notes"] = result.get("notes")
            for f in record.get("fallbacks", []):
                record["reason"] += "; it replaced a forward the harness failed (%s) with %s" % (f["reason"], f["then"])
        else:
            record["verdict"], record["reason"] = "pass", "not verified (--no-verify)"
        if record["verdict"] == "pass":
            shutil.copyfile(candidate, output)
            record["output"] = os.path.abspath(output)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _record_choices(record, optimized):
    """What the written forward runs: its kernels, stand-ins and decisions."""
    record["kernels"] = report.group_rows(optimized)
    record["calls"] = report.call_rows(optimized)
    record["decisions"] = optimized.plan.decisions
    record["passthrough"] = optimized.passthrough


def _verified(problem, candidate, options, spares, console):
    """The harness's record of ``candidate``; ``spares``: its workers started ahead, or None."""
    if console is None:
        return evaluate_with(problem, candidate, options, spares=spares)
    with console.status("verifying with the harness"):
        return evaluate_with(problem, candidate, options, spares=spares)


def _failed_by_candidate(result):
    """Whether the harness failed the candidate for what it computed: wrong outputs or a fatal
    flag, or a CUDA error in its process (not a failure of the harness itself)."""
    return result["verdict"] == "fail" or (result["verdict"] == "error" and result.get("cause") == Cause.CUDA_ERROR)


def _fall_back(optimized, failure):
    """``optimized`` made the next forward to try after its own failed the harness with
    ``failure``: ATen's GEMMs in place of kernelwright's (whose rounding differs most from
    Model's), then Model's forward itself. What it became, or None where nothing is left."""
    if optimized.uses_gemm_stand_ins():
        optimized.without_gemm_stand_ins("the harness failed the forward with them (%s)" % failure)
        return "ATen's GEMMs in place of kernelwright's"
    if not optimized.passthrough:
        optimized.as_model("The generated forward failed the harness (%s), so ModelNew keeps Model's forward."
                           % failure)
        return "Model's forward"
    return None


def _finish(record, started, console, report_dir, json_path):
    record["seconds"]["total"] = time.perf_counter() - started
    if report_dir:
        report.write(record, report_dir, record["problem"])
    if json_path:
        with open(json_path, "w") as f:
            json.dump(record, f, indent=2, default=str)
    if console is not None:
        sp = record.get("speedup_vs_eager")
        console.print("verdict %s; %s vs eager, %s vs torch.compile; error vs float64 %s; %.1f s" % (
            record["verdict"], "%.3fx" % sp if sp else "-",
            "%.3fx" % record["speedup_vs_compile"] if record.get("speedup_vs_compile") else "-",
            report.rel_l2(record.get("error_vs_fp64")), record["seconds"]["total"]), markup=False)
        if record.get("passthrough") and not record.get("fallbacks"):
            eager_ms, generated_ms = record["end_to_end_ms"]
            console.print("the generated forward measured %.4f ms against Model's %.4f ms: ModelNew keeps Model's "
                          "forward" % (generated_ms, eager_ms), markup=False)
        if record.get("output"):
            console.print("written: %s" % record["output"], markup=False)
    return record

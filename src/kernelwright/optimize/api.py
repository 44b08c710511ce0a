"""``optimize``: a model and its example inputs in, a ModelNew module's source out, with the
measured choices and the report of what was fused.
"""

import importlib.util
import math
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Optional

import torch

from . import capture as capturing
from . import emit, emit_standalone, epilogues, fusion_timing, layout, timed, tune
from . import plan as planning


@dataclass
class Optimized:
    source: str  # the emitted module's text
    plan: object
    timings: dict  # group id -> tune.GroupTiming (empty without a GPU)
    calls: dict  # ATen node name -> tune.CallTiming, for calls with a stand-in
    copy_gbps: Optional[float]
    device: str
    end_to_end: Optional[tuple] = None  # (Model's forward ms, the generated forward's ms)
    passthrough: bool = False  # the generated forward lost to Model's: ModelNew runs Model's
    notes: list = field(default_factory=list)
    seconds: dict = field(default_factory=dict)
    _module: object = field(default=None, repr=False)
    model_class: Optional[type] = None  # set where optimize() was not given the problem's source
    standalone_source: str = ""  # the same module needing only torch (emit_standalone)
    fusions: dict = field(default_factory=dict)  # group id -> fusion_timing.FusionTiming, for groups in a GEMM's epilogue
    problem_source: str = ""  # the text defining Model, which the module includes
    problem_name: str = ""

    def uses_gemm_stand_ins(self):
        """Whether a GEMM runs on kernelwright's GEMM: a stand-in, or one with a group in its epilogue."""
        return bool(self.fusions) or any(c.chosen for c in self.calls.values())

    def without_gemm_stand_ins(self, why):
        """ATen's GEMMs back in place of the stand-ins and the epilogues run in them, the names of
        those dropped and ``why`` in the decisions."""
        dropped = sorted({name for name, c in self.calls.items() if c.chosen}
                         | {"the GEMM with %s in its epilogue" % self.plan.specs[gid].name for gid in self.fusions})
        for c in self.calls.values():
            if c.chosen:
                c.note = "dropped: " + why
                c.chosen = None
        self.fusions = {}
        self.plan.decisions.append("%s: ATen's GEMM kept for %s, with no epilogue fused" % (why, ", ".join(dropped)))
        _emit(self, {gid: t.chosen for gid, t in self.timings.items()}, {})

    def as_model(self, why):
        """ModelNew made Model itself, ``why`` (a sentence) in its docstring."""
        self.passthrough = True
        self.source = self.standalone_source = emit.passthrough_source(
            self.problem_source, self.problem_name, why, emit.design_lines(self.plan))
        self._module = None

    def write(self, path, standalone=False):
        """Write the module; it defines ModelNew (and Model, get_inputs, get_init_inputs).
        ``standalone``: the module that needs only torch, its kernels built with load_inline
        (for KernelBench's evaluator); kernelwright's GEMM stand-ins run ATen's there."""
        source = self.standalone_source if standalone else self.source
        if self.model_class is not None:
            cls = self.model_class
            if cls.__module__ == "__main__":
                raise ValueError("%s is defined in __main__, which a written module cannot import; pass "
                                 "problem_source= (the text that defines Model) to optimize()" % cls.__name__)
            source = source.replace(_MODEL_STUB, "from %s import %s as Model" % (cls.__module__, cls.__qualname__))
        with open(path, "w") as f:
            f.write(source)
        return path

    def module(self, *init_args):
        """Import the emitted module and build its ModelNew from constructor arguments."""
        return self._import().ModelNew(*init_args)

    def bind(self, model):
        """A ModelNew that shares ``model``'s parameters and buffers (no copy)."""
        cls = self._import().ModelNew
        new = cls.__new__(cls)
        new.__dict__ = model.__dict__.copy()
        return new

    def _import(self):
        if self._module is None:
            self._module = _import_source(self.source, self.model_class)
        return self._module


# Where optimize() got a model but no source, the emitted module's Model is the model's own
# class, handed in at import (a script's source would run the script again).
_MODEL_STUB = "Model = __kw_model_class__  # the class optimize() was given"


def load_module(path, name=None, model_class=None):
    name = name or "kw_module_%d" % abs(hash(os.path.abspath(path)))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    if model_class is not None:
        module.__kw_model_class__ = model_class
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    spec.loader.exec_module(module)
    return module


def _import_source(source, model_class=None):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    try:
        return load_module(f.name, model_class=model_class)
    finally:
        os.unlink(f.name)


def optimize(model, example_inputs, *, problem_source=None, problem_name=None, device=None, measure=True):
    """Capture, plan, generate and (on a GPU) measure; returns ``Optimized``.

    ``problem_source`` is the text defining ``Model`` (by default the source of the module
    that defines ``type(model)``); the emitted module includes it, and its ModelNew
    subclasses ``Model``, so the class must be named Model there. Raises
    ``capture.CaptureError`` where the model is not one graph, ValueError where
    KERNELWRIGHT_EPILOGUE_WAIT is not a number of seconds.
    """
    model_class = None
    if problem_source is None:
        problem_source, model_class = _MODEL_STUB + "\n", type(model)
    problem_name = problem_name or type(model).__name__
    device = torch.device(device) if device is not None else (
        example_inputs[0].device if example_inputs and isinstance(example_inputs[0], torch.Tensor) else torch.device("cpu"))
    measuring = measure and device.type == "cuda"
    if measuring:
        fusion_timing.fusion_wait_s()  # a malformed KERNELWRIGHT_EPILOGUE_WAIT said before any work
    best = _layout(model, example_inputs, {}, problem_source, problem_name, device, measuring, model_class=model_class)
    if measuring and layout.has_convolution(best.plan.captured):
        best = _with_channels_last(best, model, example_inputs, problem_source, problem_name, device, model_class)
    if measuring:
        t = time.perf_counter()
        stand_ins = best.uses_gemm_stand_ins()
        best = _as_accurate_as_model(best, model, example_inputs)
        # Model's forward was timed in the layouts' turns, where there were two, unless the
        # check above changed the chosen one since.
        if best.end_to_end is None or best.end_to_end[0] is None or stand_ins != best.uses_gemm_stand_ins():
            best.end_to_end = tuple(tune.forwards_in_turns([model, best.bind(model)], example_inputs, device))
        eager_ms = best.end_to_end[0]
        if _forward_kept(best, eager_ms):
            note = tune.keep_note(best.end_to_end[1], eager_ms)
            if note:
                best.notes.append("the generated forward against Model's: " + note)
        else:
            best.as_model("The generated forward measured %.4f ms against Model's %.4f ms on the example inputs, "
                          "so ModelNew keeps Model's forward." % (best.end_to_end[1], eager_ms))
        best.seconds["end_to_end"] = time.perf_counter() - t
    return best


def _forward_kept(best, eager_ms):
    """Whether the generated forward stands in for Model's: faster, or a tie (tune.TIE) where it
    runs a generated kernel; a forward of ATen calls alone must be faster."""
    generated_ms = best.end_to_end[1]
    if best.fusions or any(t.chosen is not None for t in best.timings.values()):
        return tune.kernel_kept(generated_ms, eager_ms)
    return generated_ms < eager_ms


def _with_channels_last(best, model, example_inputs, problem_source, problem_name, device, model_class):
    """``best`` or the same model optimized in channels_last, whichever is faster at no worse
    accuracy; the report's notes say which and why."""
    cl_model, cl_inputs, converted = layout.channels_last(model, example_inputs)
    try:
        other = _layout(cl_model, cl_inputs, converted, problem_source, problem_name, device, True, model_class)
    except (RuntimeError, ValueError, TypeError, capturing.CaptureError) as error:
        # Only an alternative: the given layout's result stands, and the report says what failed.
        best.notes.append("layout: the channels_last forward failed (%s: %s); the given layout kept"
                          % (type(error).__name__, str(error).splitlines()[0][:200]))
        return best
    finally:
        del cl_model, cl_inputs
    # cuDNN may pick a TF32-class algorithm for one layout and an fp32 one for the other
    # (H100, 2026-11-25: 7.6e-5 against 4.8e-8 at 'highest'), and a forward cannot choose
    # without changing a global setting: the layout is kept only if no less accurate.
    t = time.perf_counter()
    forwards = [best.bind(model), other.bind(model)]
    given_err, other_err = tune.errors_vs_float64(forwards, model, example_inputs)
    # Without a float64 run neither layout's accuracy is known: the given one, the model's own, stays.
    accurate = math.isfinite(other_err) and other_err <= tune.ERROR_RATIO * given_err + 2.0**-24
    # Both as the user runs them, on the inputs as given (each converts what it needs), in turns
    # with Model's, which the end-to-end check compares the chosen one with.
    eager_ms, given_ms, other_ms = tune.forwards_in_turns([model] + forwards, example_inputs, device)
    best.end_to_end, other.end_to_end = (eager_ms, given_ms), (eager_ms, other_ms)
    chosen = other if other.end_to_end[1] < best.end_to_end[1] and accurate else best
    accuracy = ("error against float64 %.3g, as given %.3g" % (other_err, given_err) if math.isfinite(given_err)
                else "Model does not run in float64, so neither layout's accuracy is known")
    chosen.notes.append("layout: channels_last forward %.4f ms, as given %.4f ms; %s: %s kept" % (
        other.end_to_end[1], best.end_to_end[1], accuracy, "channels_last" if chosen is other else "the given layout"))
    chosen.seconds["other_layout"] = sum((best if chosen is other else other).seconds.values())
    chosen.seconds["layout_choice"] = time.perf_counter() - t
    return chosen


def _layout(model, inputs, converted, problem_source, problem_name, device, measuring, model_class=None):
    """Capture, plan, generate and measure ``model`` on ``inputs`` in one memory layout."""
    seconds = {}
    t = time.perf_counter()
    captured = capturing.capture(model, inputs)
    captured.formats = layout.placeholder_formats(captured, converted)
    seconds["capture"] = time.perf_counter() - t
    t = time.perf_counter()
    plan = planning.plan(captured)
    fusions, why_not = epilogues.candidates(plan)
    plan.decisions += why_not
    seconds["plan"] = time.perf_counter() - t
    twins = _twins(plan, problem_source, problem_name, model_class)
    timings, calls, fused, gbps, choices = {}, {}, {}, None, {}
    if measuring:
        t = time.perf_counter()
        timings, calls, fused = tune.measure(plan, model, inputs, twins, device, fusions=fusions)
        gbps = timed.copy_bandwidth(device) / 1e9
        choices = {gid: timing.chosen for gid, timing in timings.items()}
        choices.update({name: c.chosen for name, c in calls.items() if c.chosen})
        seconds["measure"] = time.perf_counter() - t
    in_epilogue = {gid: fusions[gid] for gid, f in fused.items() if f.kept}
    for gid, f in fused.items():
        plan.decisions.append("%s: %s %s's epilogue (%s)" % (
            plan.specs[gid].name, "in" if f.kept else "not in", fusions[gid].gemm.name, f.note))
    optimized = Optimized("", plan, timings, calls, gbps, str(device), seconds=seconds, model_class=model_class,
                          problem_source=problem_source, problem_name=problem_name,
                          fusions={gid: fused[gid] for gid in in_epilogue})
    _emit(optimized, choices, in_epilogue)
    return optimized


def _emit(optimized, choices, in_epilogue):
    """Writes ``optimized``'s module sources for these choices and epilogues."""
    plan, problem_source, problem_name = optimized.plan, optimized.problem_source, optimized.problem_name
    design = emit.design_lines(plan)
    optimized.source = emit.module_source(plan, problem_source, problem_name, choices, design, epilogues=in_epilogue)
    optimized.standalone_source = emit_standalone.module_source(plan, problem_source, problem_name, choices, design)
    optimized._module = None


def _as_accurate_as_model(best, model, inputs):
    """``best``, or ``best`` with ATen's GEMMs back where its GEMM stand-ins leave the forward
    further from float64 than tune.ERROR_RATIO times Model's. Each stand-in is checked against
    ATen's GEMM alone, element by element, where it is the more accurate; but the split 'highest'
    GEMM's tensor cores truncate their partial sums toward zero, so its small errors share a sign
    where the operands do, and a reduction over the GEMM's output (a row's sum of positive
    terms) adds them up where cuBLAS's rounded errors cancel."""
    # A GEMM with a group in its epilogue is kernelwright's split GEMM too, stand-in or not.
    if not best.uses_gemm_stand_ins():
        return best
    model_err, best_err = tune.errors_vs_float64([model, best.bind(model)], model, inputs)
    # Relative errors under float32's unit roundoff are rounding, whatever their ratio.
    allowed = tune.ERROR_RATIO * max(model_err, 2.0**-24)
    if not math.isfinite(model_err) or best_err <= allowed:
        return best
    best.without_gemm_stand_ins(
        "end to end: the generated forward's error against float64, %.3g, is %.3gx Model's %.3g (over %g)" % (
            best_err, best_err / max(model_err, 2.0**-24), model_err, tune.ERROR_RATIO))
    (plain_err,) = tune.errors_vs_float64([best.bind(model)], model, inputs)
    best.notes.append("without the GEMM stand-ins the generated forward is %.3g from float64" % plain_err)
    return best


def _twins(plan, problem_source, problem_name, model_class=None):
    """The groups' ATen twins, imported from an emitted module."""
    module = _import_source(emit.module_source(plan, problem_source, problem_name, {}, []), model_class)
    return {g.id: getattr(module, "_%s_aten" % plan.specs[g.id].name) for g in plan.groups}

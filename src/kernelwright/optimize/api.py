"""``optimize``: a model and its example inputs in, a ModelNew module's source out, with the
measured choices and the report of what was fused.
"""

import importlib.util
import inspect
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Optional

import torch

from . import capture as capturing
from . import emit, plan as planning, tune


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
    seconds: dict = field(default_factory=dict)
    _module: object = field(default=None, repr=False)

    def write(self, path):
        """Write the module; it defines ModelNew (and Model, get_inputs, get_init_inputs)."""
        with open(path, "w") as f:
            f.write(self.source)
        return path

    def module(self, *init_args):
        """Import the emitted module and build its ModelNew from constructor arguments."""
        return self._import().ModelNew(*init_args)

    def bind(self, model):
        """A ModelNew that shares ``model``'s parameters and buffers (no copy)."""
        new = self._import().ModelNew.__new__(self._import().ModelNew)
        new.__dict__ = model.__dict__.copy()
        return new

    def _import(self):
        if self._module is None:
            with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
                f.write(self.source)
            try:
                self._module = load_module(f.name)
            finally:
                os.unlink(f.name)
        return self._module


def load_module(path, name=None):
    name = name or "kw_module_%d" % abs(hash(os.path.abspath(path)))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    spec.loader.exec_module(module)
    return module


def optimize(model, example_inputs, *, problem_source=None, problem_name=None, device=None, measure=True):
    """Capture, plan, generate and (on a GPU) measure; returns ``Optimized``.

    ``problem_source`` is the text defining ``Model`` (by default the source of the module
    that defines ``type(model)``); the emitted module includes it, and its ModelNew
    subclasses ``Model``, so the class must be named Model there. Raises
    ``capture.CaptureError`` where the model is not one graph.
    """
    if problem_source is None:
        try:
            problem_source = inspect.getsource(sys.modules[type(model).__module__])
        except (OSError, TypeError, KeyError) as error:
            raise ValueError("the source of %s's module is not available; pass problem_source=" % (
                type(model).__name__)) from error
        problem_source += "\n\nModel = %s\n" % type(model).__name__ if type(model).__name__ != "Model" else ""
    problem_name = problem_name or type(model).__name__
    seconds = {}
    t = time.perf_counter()
    device = torch.device(device) if device is not None else (
        example_inputs[0].device if example_inputs and isinstance(example_inputs[0], torch.Tensor) else torch.device("cpu"))
    captured = capturing.capture(model, example_inputs)
    seconds["capture"] = time.perf_counter() - t
    t = time.perf_counter()
    plan = planning.plan(captured)
    seconds["plan"] = time.perf_counter() - t
    twins = _twins(plan, problem_source, problem_name)
    timings, calls, gbps, choices = {}, {}, None, {}
    if measure and device.type == "cuda":
        t = time.perf_counter()
        timings, calls = tune.measure(plan, model, example_inputs, twins, device)
        gbps = tune.copy_bandwidth(device) / 1e9
        choices = {gid: timing.chosen for gid, timing in timings.items()}
        choices.update({name: c.chosen for name, c in calls.items() if c.chosen})
        seconds["measure"] = time.perf_counter() - t
    design = emit.design_lines(plan)
    source = emit.module_source(plan, problem_source, problem_name, choices, design)
    optimized = Optimized(source, plan, timings, calls, gbps, str(device), seconds)
    if measure and device.type == "cuda":
        t = time.perf_counter()
        eager_ms, generated_ms = tune.end_to_end(model, optimized.bind(model), example_inputs, device)
        optimized.end_to_end = (eager_ms, generated_ms)
        if generated_ms >= eager_ms:
            optimized.passthrough = True
            optimized.source = emit.passthrough_source(problem_source, problem_name, eager_ms, generated_ms, design)
            optimized._module = None
        seconds["end_to_end"] = time.perf_counter() - t
    return optimized


def _twins(plan, problem_source, problem_name):
    """The groups' ATen twins, imported from an emitted module."""
    source = emit.module_source(plan, problem_source, problem_name, {}, [])
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    try:
        module = load_module(f.name)
    finally:
        os.unlink(f.name)
    return {g.id: getattr(module, "_%s_aten" % plan.specs[g.id].name) for g in plan.groups}

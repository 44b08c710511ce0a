"""Shared by the optimizer's tests: the model corpus, loading, and comparing outputs."""

import copy
import functools
import glob
import os

import torch

from kernelwright.harness.inputs import to_float64
from kernelwright.kernel import nvrtc
from kernelwright.optimize import api, capture, interpret, plan, runtime

MODELS_DIR = os.path.join(os.path.dirname(__file__), "optimize_models")
MODELS = sorted(glob.glob(os.path.join(MODELS_DIR, "[0-9]*.py")))
HALF = (torch.float16, torch.bfloat16)


def model_id(path):
    return os.path.splitext(os.path.basename(path))[0]


def build(path, seed=0, device="cpu"):
    """(module, model, inputs) with seeded weights and inputs."""
    module = api.load_module(path, "kw_test_" + model_id(path))
    torch.manual_seed(seed)
    model = module.Model(*module.get_init_inputs()).to(device)
    torch.manual_seed(seed + 1)
    inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in module.get_inputs()]
    return module, model, inputs


def module_of(fn):
    """A model whose forward is ``fn``."""
    class M(torch.nn.Module):
        def forward(self, *args):
            return fn(*args)

    return M()


def planned_and_run(fn, inputs):
    """(captured, plan, outputs): ``fn`` planned, and run with each generated kernel through its
    torch rendering (the same index arithmetic and math as its CUDA source), matching eager."""
    model = module_of(fn)
    captured = capture.capture(model, inputs)
    p = plan.plan(captured)
    with torch.no_grad():
        got = interpret.run(p, model, inputs, {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})
    assert_matches(got, model(*inputs))
    return captured, p, got


def compile_with_nvrtc(p, variants=2):
    """Each generated kernel's first variants through NVRTC (a CUDA source that does not compile
    raises), where NVRTC is installed."""
    if not nvrtc.available():
        return
    for g in p.groups:
        spec = p.specs[g.id]
        for launch in spec.variants[:variants]:
            nvrtc._compile(runtime.PRELUDE + spec.cuda_source(launch), spec.name + ".cu", spec.name,
                           ["--gpu-architecture=compute_90", "-std=c++17"], spec.name)


def computes_in_half(plan):
    return any(isinstance(n.meta.get("val"), torch.Tensor) and n.meta["val"].dtype in HALF
               for n in plan.captured.graph_module.graph.nodes)


@functools.lru_cache(maxsize=None)
def planned(path):
    """(plan, None) or (None, CaptureError) for a corpus model on the CPU."""
    _, model, inputs = build(path)
    try:
        return plan.plan(capture.capture(model, inputs)), None
    except capture.CaptureError as error:
        return None, error


def graph_outputs(plan, model, inputs):
    """The model's outputs from its captured graph run op by op through ATen."""
    gm = plan.captured.graph_module
    env = capture.environment(plan.captured, model, inputs)
    values = torch.fx.Interpreter(gm).run(*[env[n] for n in gm.graph.nodes if n.op == "placeholder"])
    by_node = dict(zip(gm.graph.output_node().args[0], values))
    return [by_node[o] if isinstance(o, torch.fx.Node) else o for o in plan.captured.user_outputs]


def as_list(out):
    return [out] if isinstance(out, torch.Tensor) else list(out)


def assert_matches(got, want, what="", half_inside=False, reference=None):
    """Outputs of the same function computed in another order: relative L2 error within the
    outputs' precision, or half precision's where the model computes in it (the fused kernels
    round differently from ATen's op-by-op half results), integers exact. ``reference``: the
    model's float64 outputs; where given, an output further from eager than that is still right
    when it is no further from float64 than eager's (an ill-conditioned model, where eager's
    float32 rounding is the larger error)."""
    got, want = as_list(got), as_list(want)
    reference = as_list(reference) if reference is not None else [None] * len(want)
    assert len(got) == len(want), what
    for i, (g, w, r) in enumerate(zip(got, want, reference)):
        assert g.shape == w.shape and g.dtype == w.dtype, "%s output %d: %s %s vs %s %s" % (
            what, i, tuple(g.shape), g.dtype, tuple(w.shape), w.dtype)
        if not w.is_floating_point():
            assert torch.equal(g, w), "%s output %d differs" % (what, i)
            continue
        g64, w64 = g.double(), w.double()
        finite = torch.isfinite(w64)
        assert torch.equal(finite, torch.isfinite(g64)), "%s output %d: NaN/inf positions differ" % (what, i)
        scale = w64[finite].norm().item()
        err = (g64 - w64)[finite].norm().item() / (scale or 1.0)
        bound = 2e-2 if w.dtype in HALF or half_inside else 1e-5
        if err > bound and r is not None:
            got_err, eager_err = float64_errors(g, w, r)
            assert got_err <= 2 * eager_err, "%s output %d: relative error %.3g from eager, %.3g from float64 " \
                "(eager's %.3g)" % (what, i, err, got_err, eager_err)
            continue
        assert err <= bound, "%s output %d: relative error %.3g > %.3g" % (what, i, err, bound)


def float64_outputs(model, inputs):
    """The model's outputs computed in float64 (float outputs only; None where it cannot run so)."""
    try:
        with torch.no_grad():
            out = as_list(copy.deepcopy(model).double()(*to_float64(list(inputs))))
    except (RuntimeError, TypeError):
        return None
    return [o if o.is_floating_point() else None for o in out]


def seeded_eager(model, inputs, half):
    """(eager outputs from the random state seed 7, their float64 reference or None). A
    forward run from the same state draws the same numbers (dropout in training mode), so its
    comparison with these is as strict as any other's. Where eager changes with the random
    state, float64 draws its own numbers and cannot vouch for an output that differs from
    eager's: no reference then, nor for a model that computes in half precision."""
    def eager(seed):
        torch.manual_seed(seed)
        with torch.no_grad():
            return as_list(copy.deepcopy(model)(*inputs))

    want = eager(7)
    drawn = any(not torch.equal(a, b) for a, b in zip(want, eager(8)))
    return want, None if half or drawn else float64_outputs(model, inputs)


def float64_errors(got, eager, reference):
    """(got's, eager's) relative L2 error against the float64 ``reference``, over the elements
    where it and eager are finite and it is within eager's type's range: there float64 says
    nothing of eager's type (476 masks with its dtype's finfo.min, -1.8e308 in float64, whose
    differences overflowed the norm into NaN), and assert_matches holds got to eager."""
    r = reference.double()
    finite = torch.isfinite(r) & torch.isfinite(eager)
    if eager.is_floating_point():
        finite &= r.abs() <= torch.finfo(eager.dtype).max
    scale = r[finite].norm().item() or 1.0
    return tuple((t.double() - r)[finite].norm().item() / scale for t in (got, eager))


def small_level(directory):
    """A folder laid out as a KernelBench level: one corpus model the optimizer fuses and one it
    cannot capture (a data-dependent branch)."""
    directory.mkdir()
    for prefix, name in (("001", "1_pointwise.py"), ("089", "2_branchy.py")):
        src = next(m for m in MODELS if model_id(m).startswith(prefix))
        (directory / name).write_text(open(src).read())
    return directory

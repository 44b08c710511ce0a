"""The optimizer on the CPU: capture, planning and code generation on every model of
tests/optimize_models (written without sight of the optimizer), each generated kernel run
through its torch twin (the same index arithmetic and math as the CUDA source), the CUDA
source compiled with NVRTC, and the emitted ModelNew module run and compared."""

import copy
import os
import re
import subprocess
import sys
import time

import pytest
import torch
from torch.fx.experimental.symbolic_shapes import statically_known_true

from kernelwright.kernel import nvrtc
from kernelwright.harness import session
from kernelwright.harness.protocol import Cause, Role
from kernelwright.optimize import (api, capture, codegen, driver, fusion_timing, interpret, layout, opset, plan, report,
                                   runtime, timed, tune)
from tests.optimize_util import (MODELS, as_list, assert_matches, build, computes_in_half, float64_outputs,
                                 compile_with_nvrtc, graph_outputs, model_id, planned, planned_and_run, seeded_eager,
                                 small_level)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("path", MODELS, ids=model_id)
def test_generated_kernels_and_their_aten_twins_match_eager(path):
    p, error = planned(path)
    if p is None:
        assert error.args[0], "a capture error says why"
        pytest.skip("not one graph: %s" % error)
    _, model, inputs = build(path)
    half = computes_in_half(p)
    want, reference = seeded_eager(model, inputs, half)
    torch.manual_seed(7)
    with torch.no_grad():
        got = interpret.run(p, copy.deepcopy(model), inputs, {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})
    assert_matches(got, want, model_id(path), half, reference)
    # The ATen twins (the emitted module's fallbacks, and what the kernels are timed against)
    # run the captured graph's own ops, so they match it, however it rounds.
    torch.manual_seed(7)
    with torch.no_grad():
        graph = graph_outputs(p, copy.deepcopy(model), inputs)
        torch.manual_seed(7)
        twins = interpret.run(p, copy.deepcopy(model), inputs, api._twins(p, open(path).read(), None))
    assert_matches(twins, graph, model_id(path) + " (ATen twins)", half)


@pytest.mark.skipif(not nvrtc.available(), reason="needs cuda-bindings and an NVRTC library")
@pytest.mark.parametrize("path", MODELS, ids=model_id)
def test_generated_cuda_compiles_with_nvrtc(path):
    p, _ = planned(path)
    if p is None or not p.groups:
        pytest.skip("no generated kernels")
    for g in p.groups:
        spec = p.specs[g.id]
        # Two variants of the group's template and, of it and of each other template it may
        # run, one variant with 16-byte vectors and one without.
        own = [l for l in spec.variants if not l.template]
        chosen = {(l.template, dict(l.defines).get("VEC", 1) > 1): l for l in reversed(spec.variants)}
        for launch in own[:2] + list(chosen.values()):
            nvrtc._compile(runtime.PRELUDE + spec.cuda_source(launch), spec.name + ".cu", spec.name,
                           ["--gpu-architecture=compute_90", "-std=c++17"], spec.name)


def _has_elements(node):
    val = node.meta.get("val")  # sizes may be data-dependent: only a known zero counts as empty
    return not isinstance(val, torch.Tensor) or not statically_known_true(val.numel() == 0)


def test_the_corpus_is_mostly_fused():
    """Every model with pointwise or reduction work outside a library call gets a kernel; work
    whose outputs are empty has nothing to compute and is left to ATen."""
    without = []
    for path in MODELS:
        p, _ = planned(path)
        if p is None:
            continue
        work = [n for n in p.captured.graph_module.graph.nodes
                if opset.kind(n) in (opset.POINTWISE, opset.REDUCTION) and _has_elements(n)]
        if work and not p.groups:
            without.append(model_id(path))
    assert not without, "models with fusible ops but no kernel: %s" % without


EMITTED = [m for m in MODELS if model_id(m).split("_")[0] in (
    "001", "004", "013", "017", "018", "020", "027", "032", "038", "049", "053", "057", "074", "075", "078",
    "081", "083", "087", "113", "314", "322", "324", "402", "405", "408", "413", "415", "418", "422")]


@pytest.mark.parametrize("path", EMITTED, ids=model_id)
def test_emitted_module_runs_its_generated_forward(path, monkeypatch):
    """The written ModelNew: Model's constructor and state_dict, and its generated forward (each
    kernel through its ATen twin on the CPU) computing what Model does, buffers included."""
    monkeypatch.setattr(runtime, "CPU_PATH", True)
    module, model, inputs = build(path)
    optimized = api.optimize(model, inputs, problem_source=open(path).read(), problem_name=os.path.basename(path))
    new = optimized.module(*module.get_init_inputs())
    assert list(new.state_dict()) == list(model.state_dict())
    new.load_state_dict(model.state_dict())
    reference = copy.deepcopy(model)
    calls = []
    original = type(new).__mro__[1].forward
    monkeypatch.setattr(type(new).__mro__[1], "forward", lambda self, *a: calls.append(1) or original(self, *a))
    with torch.no_grad():
        want = as_list(reference(*inputs))
        got = as_list(new(*inputs))
    assert not calls, "the generated path fell back to Model.forward"
    assert_matches(got, want, model_id(path))
    for (name, a), b in zip(reference.named_buffers(), new.buffers()):
        assert torch.allclose(a.double(), b.double(), rtol=1e-5, atol=1e-6), "buffer %s" % name


def test_emitted_module_falls_back_off_its_shapes(monkeypatch):
    monkeypatch.setattr(runtime, "CPU_PATH", True)
    path = next(m for m in MODELS if model_id(m).startswith("013"))
    module, model, inputs = build(path)
    optimized = api.optimize(model, inputs, problem_source=open(path).read())
    new = optimized.bind(model)
    other = [torch.randn(*(s + 1 for s in x.shape)) for x in inputs]
    with torch.no_grad():
        assert_matches(new(*other), model(*other), "other shapes")
        assert_matches(new(*inputs), model(*inputs), "captured shapes")
    assert not runtime.guard([other[0]], [(tuple(inputs[0].shape), tuple(inputs[0].stride()), inputs[0].dtype)])


def test_aten_twins_take_their_inputs_in_another_layout():
    """A kernel's ATen twin is its fallback for inputs laid out otherwise than traced (a
    convolution's output in channels_last): a view the trace took must still work there."""
    path = next(m for m in MODELS if model_id(m).startswith("113"))
    p, _ = planned(path)
    _, model, inputs = build(path)
    twins = api._twins(p, open(path).read(), "113")
    seen = []
    with torch.no_grad():
        interpret.run(p, model, inputs, twins, on_group=lambda g, args: seen.append((g.id, list(args))))
        assert any(a.dim() == 4 for _, args in seen for a in args), "the corpus model lost its 4-d group input"
        for gid, args in seen:
            other = [a.contiguous(memory_format=torch.channels_last) if a.dim() == 4 else a for a in args]
            for got, want in zip(twins[gid](*other), twins[gid](*args)):
                torch.testing.assert_close(got, want, rtol=0, atol=0)


def test_channels_last_variant_converts_weights_and_inputs_itself(monkeypatch):
    """The layout candidate is captured on channels_last copies; its ModelNew, bound to the
    user's contiguous model and given contiguous inputs, converts them and computes the same."""
    monkeypatch.setattr(runtime, "CPU_PATH", True)
    path = next(m for m in MODELS if model_id(m).startswith("052"))
    _, model, inputs = build(path)
    cl_model, cl_inputs, converted = layout.channels_last(model, inputs)
    assert converted and all(v.startswith("torch.channels_last") for v in converted.values())
    optimized = api._layout(cl_model, cl_inputs, converted, open(path).read(), "052", torch.device("cpu"), False)
    assert "memory_format=torch.channels_last" in optimized.source
    new = optimized.bind(model)
    with torch.no_grad():
        assert_matches(new(*inputs), model(*inputs), "channels_last")


def test_planner_fuses_softmax_into_one_rows_kernel_and_leaves_the_gemm_to_aten():
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(40, 24)

        def forward(self, x):
            return torch.softmax(self.lin(x) * 2.0, dim=-1)

    p = plan.plan(capture.capture(M(), [torch.randn(9, 40)]))
    assert len(p.groups) == 1
    spec = p.specs[p.groups[0].id]
    assert spec.template == "rows" and (spec.rows, spec.cols) == (9, 24)
    assert {"amax", "sum", "exp", "div", "mul"} <= set(p.groups[0].ops())
    assert any("addmm" in d and "ATen" in d for d in p.decisions)


def test_reductions_of_one_tensor_share_a_kernel_that_reads_it_once():
    """GroupNorm's variance and mean of its input are siblings (neither consumes the other):
    one rows kernel computes both."""
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.gn = torch.nn.GroupNorm(4, 16)

        def forward(self, x):
            return torch.relu(self.gn(x))

    torch.manual_seed(0)
    model, x = M(), torch.randn(2, 16, 9, 11)
    p = _plan_with_affine(model, model.gn, x)
    rows = [g for g in p.groups if p.specs[g.id].template == "rows"]
    assert len(rows) == 1 and {"var", "sum"} <= set(rows[0].ops()), [g.ops() for g in p.groups]
    assert any("reads the same x" in d for d in p.decisions), p.decisions
    assert_matches(_through_twins(p, model, x), model(x))


def _plan_with_affine(model, norm, x):
    """The plan of ``model`` on ``x``, its ``norm``'s weight and bias drawn away from 1 and 0."""
    with torch.no_grad():
        norm.weight.normal_()
        norm.bias.normal_()
    return plan.plan(capture.capture(model, [x]))


def _through_twins(p, model, x):
    with torch.no_grad():
        return interpret.run(p, model, [x], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})


@pytest.mark.parametrize("norm", ["group", "instance"])
def test_a_norm_with_its_prologue_and_affine_is_one_rows_kernel(norm):
    """GroupNorm's per-(sample, channel) coefficients have neither the row's shape nor one value
    a row, and its result is written in (N, C, H, W), not in the rows' (N, G, C/G * H * W): the
    statistics, the pointwise ops before them and the affine after still make one kernel that
    reads the input once for the statistics and once for the result."""
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = torch.nn.Parameter(torch.randn(12, 1, 1))
            self.norm = torch.nn.GroupNorm(4, 12) if norm == "group" else torch.nn.InstanceNorm2d(12, affine=True)

        def forward(self, x):
            return self.norm(torch.sigmoid(x * self.scale)) / 1.5

    torch.manual_seed(1)
    model, x = M(), torch.randn(3, 12, 7, 5)
    p = _plan_with_affine(model, model.norm, x)
    assert len(p.groups) == 1, p.decisions
    spec = p.specs[p.groups[0].id]
    assert spec.template == "rows" and {"sigmoid", "var", "rsqrt", "div"} <= set(p.groups[0].ops())
    assert spec.outputs[0].shape == (3, 12, 7, 5)
    with torch.no_grad():
        assert_matches(_through_twins(p, model, x), model(x), norm, reference=float64_outputs(model, [x]))


def test_planner_never_makes_a_group_wait_on_itself():
    """a -> ATen call -> b with a and b both pointwise: one kernel for both would need the
    ATen result inside itself, so they are two."""
    class M(torch.nn.Module):
        def forward(self, x, w):
            a = torch.relu(x)
            b = a @ w
            return torch.sigmoid(b) + a.sum()

    p = plan.plan(capture.capture(M(), [torch.randn(8, 8), torch.randn(8, 8)]))
    for g in p.groups:
        inside = set(g.nodes)
        for n in g.nodes:
            for a in n.all_input_nodes:
                assert not (a not in inside and any(x in inside for x in _ancestors(a))), "cycle through %s" % a


def _ancestors(node):
    seen, stack = set(), list(node.all_input_nodes)
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(n.all_input_nodes)
    return seen


def test_codegen_refuses_outputs_of_different_shapes_with_a_reason():
    class M(torch.nn.Module):
        def forward(self, x, b):
            c = b * 2.0
            return x + c, c

    cap = capture.capture(M(), [torch.randn(4, 5), torch.randn(5)])
    nodes = [n for n in cap.graph_module.graph.nodes if n.op == "call_function"]
    users = {n: set(n.users) for n in cap.graph_module.graph.nodes}
    group = plan._group(0, nodes, users)
    with pytest.raises(Exception, match="outputs of different shapes"):
        codegen.build(group)


def test_capture_error_names_the_source_line():
    path = next(m for m in MODELS if model_id(m).startswith("089"))
    _, model, inputs = build(path)
    with pytest.raises(capture.CaptureError) as info:
        capture.capture(model, inputs)
    assert info.value.where and "089_data_dependent_branch.py" in info.value.where


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kernelwright", "optimize", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_cli_writes_a_module_that_imports(tmp_path):
    path = next(m for m in MODELS if model_id(m).startswith("034"))
    out = tmp_path / "new.py"
    r = _cli(path, "-o", str(out), "--no-verify", "--report", str(tmp_path / "report"), cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    module = api.load_module(str(out))
    assert issubclass(module.ModelNew, module.Model)
    assert "kw_fused_0" in out.read_text() and "__global__" in out.read_text()
    assert (tmp_path / "report" / "034_layernorm_last_dim_gelu.md").is_file()


def test_cli_states_why_a_model_is_not_optimized(tmp_path):
    path = next(m for m in MODELS if model_id(m).startswith("089"))
    r = _cli(path, "-o", str(tmp_path / "new.py"), "--no-verify", cwd=tmp_path)
    assert r.returncode == 2
    assert "not captured as one graph" in r.stdout and "089_data_dependent_branch.py" in r.stdout
    assert not (tmp_path / "new.py").exists()
    assert _cli(str(tmp_path / "missing.py"), cwd=tmp_path).returncode == 2


def test_cli_refuses_a_malformed_fusion_wait_before_any_work(tmp_path):
    path = next(m for m in MODELS if model_id(m).startswith("034"))
    r = subprocess.run([sys.executable, "-m", "kernelwright", "optimize", path, "-o", str(tmp_path / "new.py")],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600,
                       env={**os.environ, "KERNELWRIGHT_EPILOGUE_WAIT": "twenty"})
    assert r.returncode == 2, r.stdout + r.stderr
    assert "KERNELWRIGHT_EPILOGUE_WAIT must be a number of seconds" in r.stdout and "'twenty'" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr and not (tmp_path / "new.py").exists()


def test_suite_verifies_records_and_resumes(tmp_path):
    suite = small_level(tmp_path / "level")
    out = tmp_path / "out"
    r = _cli("--suite", str(suite), "--out", str(out), cwd=tmp_path)
    records = [__import__("json").loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [x["problem"] for x in records] == ["1_pointwise", "2_branchy"]
    assert records[0]["verdict"] == "pass" and (out / "models" / "1_pointwise_kernelwright.py").is_file()
    assert records[1]["verdict"] == "error" and "not captured" in records[1]["reason"]
    assert r.returncode == 1 and (out / "summary.json").is_file() and (out / "speedups.png").is_file()
    assert "fast_1" in (out / "summary.md").read_text() and "1_pointwise | pass" in (out / "summary.md").read_text()
    again = _cli("--suite", str(suite), "--out", str(out), cwd=tmp_path)
    assert len((out / "results.jsonl").read_text().splitlines()) == 2, again.stdout


def test_the_harness_workers_start_while_the_problem_is_optimized(tmp_path, monkeypatch):
    """One candidate worker and one judge start before the problem is loaded and take their
    jobs when the candidate is written; no other is started."""
    taken, made = [], []

    class Recording(session.Spares):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

        def take(self, role=Role.CANDIDATE):
            worker = super().take(role)
            taken.append((role, worker is not None))
            return worker

    monkeypatch.setattr(driver, "Spares", Recording)
    problem = small_level(tmp_path / "level") / "1_pointwise.py"
    record = driver.optimize_problem(str(problem), str(tmp_path / "new.py"))
    assert record["verdict"] == "pass", record["reason"]
    assert sorted(taken) == sorted([(Role.CANDIDATE, True), (Role.JUDGE, True)]) and made[0].started == 2
    assert not os.path.exists(made[0].directory)


@pytest.mark.cuda
def test_a_problems_inputs_are_drawn_on_the_gpu(tmp_path):
    """get_inputs()'s factories that name no device draw on the GPU (gigabytes drawn on the CPU
    took 10-24 s a problem), as the harness draws them; other values pass through."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device")
    path = tmp_path / "problem.py"
    path.write_text("import torch\n\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n\n"
                    "def get_inputs():\n    x = torch.randn(64, 33)\n    open(%r, 'w').write(x.device.type)\n    return [x, 3]\n\n"
                    "def get_init_inputs():\n    return []\n" % str(tmp_path / "drawn_on"))
    model, inputs = driver._load_problem(str(path), 0, torch.device("cuda"))
    assert (tmp_path / "drawn_on").read_text() == "cuda" and inputs[0].is_cuda and inputs[1] == 3


def test_python_api_binds_to_the_users_model_and_writes_an_importable_module(tmp_path, monkeypatch):
    """kernelwright.optimize(model, inputs) with no source: ModelNew subclasses the model's own
    class; bind() shares its weights; write() imports the class where it can be imported."""
    import kernelwright

    monkeypatch.setattr(runtime, "CPU_PATH", True)
    model = torch.nn.Sequential(torch.nn.Linear(33, 17), torch.nn.GELU(), torch.nn.LayerNorm(17))
    x = torch.randn(9, 33)
    opt = kernelwright.optimize(model, [x])
    fast = opt.bind(model)
    assert isinstance(fast, torch.nn.Sequential) and fast[0].weight is model[0].weight
    with torch.no_grad():
        assert_matches(fast(x), model(x), "bound")
    path = opt.write(str(tmp_path / "new.py"))
    assert "from torch.nn.modules.container import Sequential as Model" in open(path).read()
    assert issubclass(api.load_module(path).ModelNew, torch.nn.Sequential)

    class Local(torch.nn.Module):
        def forward(self, x):
            return torch.relu(x) * 2

    Local.__module__ = "__main__"
    with pytest.raises(ValueError, match="problem_source"):
        kernelwright.optimize(Local(), [x]).write(str(tmp_path / "local.py"))


def test_integer_floor_and_trunc_division_follow_torch_for_negative_operands():
    class M(torch.nn.Module):
        def forward(self, a, b, x):
            return (torch.div(a, b, rounding_mode="floor") * 3 + torch.div(a, b, rounding_mode="trunc"),
                    torch.div(x, 0.7, rounding_mode="floor"))

    a = torch.randint(-50, 50, (37, 11))
    b = torch.randint(1, 7, (37, 11)) * (torch.randint(0, 2, (37, 11)) * 2 - 1)
    x = torch.randn(37, 11) * 5
    p = plan.plan(capture.capture(M(), [a, b, x]))
    assert p.groups
    kernels = {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups}
    with torch.no_grad():
        assert_matches(interpret.run(p, M(), [a, b, x], kernels), M()(a, b, x), "integer division")
    if nvrtc.available():
        for g in p.groups:
            spec = p.specs[g.id]
            nvrtc._compile(runtime.PRELUDE + spec.cuda_source(), spec.name + ".cu", spec.name,
                           ["--gpu-architecture=compute_90", "-std=c++17"], spec.name)


def test_round_keeps_its_decimals():
    # round(x, decimals=d) once generated as round(x): found by a blind corpus model (192).
    class M(torch.nn.Module):
        def forward(self, x):
            return torch.round(x, decimals=2) + torch.round(x * 3.0, decimals=-1) - torch.round(x)

    x = torch.randn(37, 11) * 5
    p = plan.plan(capture.capture(M(), [x]))
    assert p.groups
    kernels = {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups}
    with torch.no_grad():
        assert_matches(interpret.run(p, M(), [x], kernels), M()(x), "round with decimals")
    if nvrtc.available():
        for g in p.groups:
            spec = p.specs[g.id]
            nvrtc._compile(runtime.PRELUDE + spec.cuda_source(), spec.name + ".cu", spec.name,
                           ["--gpu-architecture=compute_90", "-std=c++17"], spec.name)


def test_a_variant_far_slower_than_the_best_is_timed_once():
    calls = []

    def slow():
        calls.append(1)
        time.sleep(0.03)

    ms, full = timed.time_unless_hopeless(slow, (), "cpu", 0.05, best_ms=1.0)
    assert not full and ms >= 30 and len(calls) <= 2
    calls.clear()
    ms, full = timed.time_unless_hopeless(slow, (), "cpu", 0.05, best_ms=20.0)
    assert full and ms >= 30 and len(calls) > 2


def test_layouts_are_compared_by_their_error_against_float64():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU())
    x = torch.randn(2, 3, 17, 19)
    exact = lambda x: model(x)  # noqa: E731
    rounded = lambda x: model(x).half().float()  # noqa: E731
    errors = tune.errors_vs_float64([exact, rounded], model, [x])
    assert errors[0] < 1e-6 < errors[1] < 1e-3


def test_a_model_that_cannot_run_in_float64_has_no_error_against_it():
    # Its forward casts to float32 itself, which float64 weights then meet: the float64 run
    # fails, as the harness's does, and no layout is judged by it.
    class CastsItself(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 4, 3)

        def forward(self, x):
            return self.conv(x.float())

    torch.manual_seed(0)
    model = CastsItself()
    x = torch.randn(2, 3, 9, 11).half()
    assert tune.errors_vs_float64([model, model], model, [x]) == [float("inf")] * 2


_SUMMED_GEMM = """
import torch


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(256, 512)

    def forward(self, x):
        return self.linear(x).sum(dim=1)
"""


@pytest.mark.parametrize("scale, dropped, fused", [(1 - 2.0**-20, True, False), (1 - 2.0**-20, True, True),
                                                   (1.0, False, False)], ids=["biased", "biased_epilogue", "exact"])
def test_gemm_stand_ins_whose_errors_add_up_are_dropped_end_to_end(scale, dropped, fused):
    # A stand-in whose every output is off in the same direction, as a GEMM truncating its partial
    # sums is on operands of one sign: a row's sum adds those errors up.
    torch.manual_seed(0)
    model = api._import_source(_SUMMED_GEMM).Model()
    x = torch.rand(64, 256)
    best = api.optimize(model, [x], problem_source=_SUMMED_GEMM, problem_name="summed_gemm", measure=False)
    # The sum in the GEMM's epilogue runs kernelwright's GEMM whether or not addmm's stand-in won.
    best.calls = {"addmm": tune.CallTiming(aten_ms=1.0, chosen=None if fused else "a stand-in")}
    best.fusions = {g.id: fusion_timing.FusionTiming(fused_ms=1.0, apart_ms=2.0) for g in best.plan.groups} if fused else {}
    best.source = _SUMMED_GEMM + (
        "\n\nclass ModelNew(Model):\n    def forward(self, x):\n        return super().forward(x) * %r\n" % scale)
    given = best.source
    kept = api._as_accurate_as_model(best, model, [x])
    model_err, kept_err = tune.errors_vs_float64([model, kept.bind(model)], model, [x])
    assert kept_err <= tune.ERROR_RATIO * max(model_err, 2.0**-24)
    assert (kept.source != given) == dropped
    assert (kept.calls["addmm"].chosen is None) == (dropped or fused) and (not kept.fusions) == (dropped or not fused)
    assert any(d.startswith("end to end: ") and ("epilogue" if fused else "addmm") in d
               for d in kept.plan.decisions) == dropped


@pytest.mark.parametrize("message, refused", [
    ("cuLaunchCooperativeKernel failed: CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", True),
    ("cuLaunchKernel failed: CUDA_ERROR_INVALID_CLUSTER_SIZE", True),
    ("cuLaunchKernel failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", True),
    ("cuLaunchKernel failed: CUDA_ERROR_ILLEGAL_ADDRESS", False),
    ("cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE", False),
])
def test_only_a_shape_the_device_cannot_hold_counts_as_a_refused_launch(message, refused):
    assert runtime.refused_shape(message) is refused


@pytest.mark.parametrize("case", ["nan_to_num", "where_isnan", "isinf_mask"])
def test_predicates_look_at_the_value_not_its_truth(case):
    """isnan/isinf of a float value: the operand keeps its type (cast to bool first, NaN
    was 'true' and never NaN, so nan_to_num let NaN through)."""
    fn = {"nan_to_num": lambda x: torch.nan_to_num(x * 2.0, nan=0.5, posinf=1.0, neginf=-1.0),
          "where_isnan": lambda x: torch.where(torch.isnan(x), torch.zeros_like(x), x) + 1.0,
          "isinf_mask": lambda x: (torch.isinf(x) | torch.isnan(x)).float() * 3.0 + x.clamp(-1, 1).nan_to_num()}[case]

    class M(torch.nn.Module):
        def forward(self, x):
            return fn(x)

    x = torch.randn(4, 9)
    x[1, 2], x[2, 3], x[3, 4] = float("nan"), float("inf"), float("-inf")
    p = plan.plan(capture.capture(M(), [x]))
    with torch.no_grad():
        got = interpret.run(p, M(), [x], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})
    assert p.groups and torch.equal(as_list(got)[0], fn(x))
    for g in p.groups:
        assert "static_cast<bool>" not in p.specs[g.id].cuda_body


def test_the_report_lists_every_variant_measured_and_why_some_were_cut_short():
    record = {"problem": "p", "device": "cuda", "date": "d", "verdict": "pass", "decisions": ["kw_fused_0: rows"],
              "kernels": [{"kernel": "kw_fused_0", "op_count": 2, "ops": ["pow", "sum"], "aten_ms": 13.5,
                           "kernel_ms": 10.8, "bytes": 8, "kept": True, "variant": "split rows, THREADS=1024",
                           "variants_ms": {"THREADS=256, ROWS_PER_BLOCK=1": 3156.8, "split rows, THREADS=1024": 10.8},
                           "timed_once": ["THREADS=256, ROWS_PER_BLOCK=1"], "refused": ["cluster rows, CLUSTER=8"],
                           "failures": ["variant X wrong (error 0.5 against ATen)"]}]}
    text = report.markdown(record)
    line = next(x for x in text.splitlines() if x.startswith("- kw_fused_0 (ATen 13.5"))
    assert "THREADS=256, ROWS_PER_BLOCK=1 3156.8000 ms (one call: over 3x the best so far)" in line
    assert "split rows, THREADS=1024 10.8000 ms (chosen)" in line
    assert "cluster rows, CLUSTER=8 refused by the device" in line and "variant X wrong" in line


def test_float64_arbiter_keeps_a_kernel_closer_to_exact_than_aten_and_refuses_a_wrong_one():
    """Means of values that cancel: float32 ATen is far from the exact result, a kernel that
    sums in double is near it and disagrees with ATen by more than the tolerance."""
    g = torch.Generator().manual_seed(3)
    big = torch.randn(64, 1 << 14, generator=g) * 1e3
    x = torch.cat([big, -big, torch.randn(64, 7, generator=g)], dim=1)

    def twin(t):
        return (t.sum(dim=1) / t.shape[1],)

    want = twin(x)
    exact = twin(x.double())[0]
    accurate = (exact.float(),)
    assert timed.rel_error(accurate[0], want[0]) > 1e-3, "the case lost its cancellation"
    arbiter = tune._Float64Arbiter(twin, [x], want)
    err = arbiter.accepts(accurate, 1e-3)
    assert err is not None and err < arbiter.aten_error
    wrong = (exact.float() + exact.abs().max().float(),)
    assert arbiter.accepts(wrong, 1e-3) is None
    assert "from float64" in arbiter.describe()


@pytest.mark.skipif(not nvrtc.available(), reason="needs cuda-bindings and an NVRTC library")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
def test_pointwise_vector_variant_moves_dense_operands_in_16_byte_accesses(dtype):
    """The VEC variants exist for their 16-byte loads and stores: the PTX has one for each dense
    operand (VEC elements of 16 bytes in all), and keeps a per-element path for the tail and a
    broadcast operand."""
    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bias = torch.nn.Parameter(torch.randn(37, 1))

        def forward(self, x, y):
            return torch.sigmoid(x) * y + self.bias

    x, y = torch.randn(37, 1001).to(dtype), torch.randn(37, 1001).to(dtype)  # not a whole number of vectors
    p = plan.plan(capture.capture(Model().to(dtype), [x, y]))
    spec = p.specs[p.groups[0].id]
    vec = 16 // x.element_size()
    launch = next(l for l in spec.variants if dict(l.defines).get("VEC") == vec)
    ptx, _ = nvrtc._compile(runtime.PRELUDE + spec.cuda_source(launch), spec.name + ".cu", spec.name,
                            ["--gpu-architecture=compute_90", "-std=c++17"], spec.name)
    ptx = ptx.decode(errors="replace")
    assert len(re.findall(r"ld\.global(\.nc)?\.v4\.(f32|u32|b32)", ptx)) == 2, "x and y as 16-byte loads"
    assert len(re.findall(r"st\.global\.v4\.(f32|u32|b32)", ptx)) == 1, "the output as 16-byte stores"
    assert re.search(r"ld\.global(\.nc)?\.(f32|u16|b16)\s", ptx), "the tail and the bias element by element"


@pytest.mark.skipif(not nvrtc.available(), reason="needs cuda-bindings and an NVRTC library")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=str)
def test_rows_vector_variant_reads_and_writes_the_row_in_16_byte_accesses(dtype):
    """A norm's VEC variant reads the row in 16-byte loads in both its loops (statistics, then
    the normalized row) and writes it in 16-byte stores; the per-column path stays for rows
    whose start is not aligned."""
    class Model(torch.nn.Module):
        def forward(self, x):
            return torch.nn.functional.layer_norm(x.float(), x.shape[-1:]).to(x.dtype) * 2.0

    x = torch.randn(33, 4096).to(dtype)
    p = plan.plan(capture.capture(Model(), [x]))
    spec = next(s for s in p.specs.values() if s.template == "rows")
    vec = 16 // x.element_size()
    assert {dict(l.defines).get("VEC") for l in spec.variants if not l.template} == {1, vec}
    launch = next(l for l in spec.variants if dict(l.defines).get("VEC") == vec)
    ptx, _ = nvrtc._compile(runtime.PRELUDE + spec.cuda_source(launch), spec.name + ".cu", spec.name,
                            ["--gpu-architecture=compute_90", "-std=c++17"], spec.name)
    ptx = ptx.decode(errors="replace")
    # The compiler unrolls the column loops, so the counts are per unrolled iteration.
    assert len(re.findall(r"ld\.global(\.nc)?\.v4\.(f32|u32|b32)", ptx)) >= 2, "x as 16-byte loads, in each loop"
    assert len(re.findall(r"st\.global\.v4\.(f32|u32|b32)", ptx)) >= 1, "the output as 16-byte stores"
    assert re.search(r"ld\.global(\.nc)?\.(f32|u16|b16)\s", ptx), "the misaligned path column by column"


def test_a_rows_vector_loop_loads_a_batch_of_steps_before_working_on_them():
    """The online max and sum's branch keeps the compiler from loading a step ahead by itself:
    the vector loop issues BATCH steps' 16-byte loads before the first exponential."""
    class Model(torch.nn.Module):
        def forward(self, x, t):
            return torch.nn.functional.cross_entropy(x, t)

    p = plan.plan(capture.capture(Model(), [torch.randn(64, 4096), torch.randint(0, 4096, (64,))]))
    spec = next(s for s in p.specs.values() if s.template == "rows" and "amax" in s.ops)
    launch = next(l for l in spec.variants if dict(l.defines).get("VEC") == 4 and dict(l.defines)["THREADS"] == 256)
    ptx, _ = nvrtc._compile(runtime.PRELUDE + spec.cuda_source(launch), spec.name + ".cu", spec.name,
                            ["--gpu-architecture=compute_90", "-std=c++17"], spec.name)
    ptx = ptx.decode(errors="replace")
    first = re.search(r"ld\.global(\.nc)?\.v4", ptx).start()
    work = ptx.index("ex2.approx", first)
    assert len(re.findall(r"ld\.global(\.nc)?\.v4", ptx[first:work])) == codegen._BATCH


def test_rows_offer_no_vector_variant_where_a_row_breaks_the_alignment():
    """4097 columns: the second row starts 4 bytes past a 16-byte boundary."""
    class Model(torch.nn.Module):
        def forward(self, x):
            return torch.softmax(x, -1)

    p = plan.plan(capture.capture(Model(), [torch.randn(9, 4097)]))
    spec = next(s for s in p.specs.values() if s.template == "rows")
    assert {dict(l.defines).get("VEC") for l in spec.variants if not l.template} == {1}


def test_a_zero_dim_constant_moves_to_the_plan_device_and_nothing_else_does():
    """``torch.tensor(0.5)`` in forward is a CPU scalar to ATen wherever the other operands are;
    a generated kernel reads it through a pointer, so it goes where the inputs are."""
    meta = torch.device("meta")
    scalar, table = torch.tensor(0.5), torch.tensor([1.0, 2.0])
    assert capture.follows_inputs(scalar, meta)
    assert not capture.follows_inputs(table, meta)
    assert capture.follows_inputs(table, torch.device("cpu"))
    assert not capture.follows_inputs(scalar, None)


@pytest.mark.parametrize("conv,shape", [
    (torch.nn.Conv1d(3, 5, 4, stride=2), (2, 3, 37)),
    (torch.nn.Conv2d(4, 6, 3, groups=2, padding=1), (3, 4, 9, 11)),
    (torch.nn.ConvTranspose2d(3, 5, 3, stride=2), (2, 3, 7, 5)),
    (torch.nn.Conv3d(2, 3, 2), (1, 2, 5, 6, 7)),
], ids=["conv1d", "grouped_conv2d", "conv_transpose2d", "conv3d"])
def test_a_convolution_bias_is_added_by_the_kernel_after_it(conv, shape):
    """cuDNN's convolutions add their bias in a pass of their own: the bias leaves the
    convolution and joins the pointwise kernel that reads its output; results unchanged."""
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv, self.plain = conv, copy.deepcopy(conv)
            self.plain.bias = None

        def forward(self, x):
            return torch.tanh(self.conv(x)) * 0.5 + self.plain(x)

    torch.manual_seed(0)
    model, x = M(), torch.randn(shape)
    p = plan.plan(capture.capture(model, [x]))
    convs = [n for n in p.captured.graph_module.graph.nodes if n.target is torch.ops.aten.convolution.default]
    assert [n.args[2] for n in convs] == [None, None]
    assert sum("without its bias, which the ops after it add" in d for d in p.decisions) == 1
    fused = [d for d in p.decisions if "kernel fusing" in d]
    assert len(fused) == 1 and "add" in fused[0] and "tanh" in fused[0], p.decisions
    kernels = {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups}
    with torch.no_grad():
        got = interpret.run(p, model, [x], kernels)
        torch.testing.assert_close(as_list(got)[0], model(x), rtol=1e-5, atol=1e-6)


def test_attention_stays_one_library_call_between_fused_kernels():
    """SDPA decomposed is bmm, a softmax over the materialised scores and bmm; kept whole it runs
    ATen's fused attention, and what surrounds it still fuses."""
    class M(torch.nn.Module):
        def forward(self, q, k, v):
            return torch.nn.functional.scaled_dot_product_attention(q * 0.5, k, v, is_causal=True).relu()

    q, k, v = (torch.randn(2, 3, 17, 8) for _ in range(3))
    p = plan.plan(capture.capture(M(), [q, k, v]))
    called = [opset.op_name(n.target) for n in p.units if isinstance(n, torch.fx.Node)]
    assert "scaled_dot_product_attention" in called and "bmm" not in called
    assert len(p.groups) == 2
    kernels = {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups}
    with torch.no_grad():
        got = interpret.run(p, M(), [q, k, v], kernels)
    assert_matches(got, M()(q, k, v), "sdpa")


def _harness_failing(times, calls, failure=("fail", "wrong output on wide(trial1): 3 elements", None)):
    """evaluate_with's stand-in: ``failure`` (verdict, reason, cause) for the first ``times``
    candidates, then a pass; ``calls`` gets each candidate's source and whether spares were
    handed over."""
    def evaluate(problem, candidate, options, spares=None):
        calls.append((open(candidate).read(), spares is not None))
        if len(calls) <= times:
            return dict(zip(("verdict", "reason", "cause"), failure))
        return {"verdict": "pass", "reason": "correct on 10 input sets; 1.5x vs eager", "cause": None}
    return evaluate


@pytest.mark.parametrize("failures", [1, 2])
def test_a_forward_the_harness_fails_falls_back_to_models_own(tmp_path, monkeypatch, failures):
    """The generated forward failed: Model's forward is verified in its place and written where it
    passes, the record saying what failed; where it fails too, nothing is written."""
    calls = []
    monkeypatch.setattr(driver, "evaluate_with", _harness_failing(failures, calls))
    problem = small_level(tmp_path / "level") / "1_pointwise.py"
    out = tmp_path / "new.py"
    record = driver.optimize_problem(str(problem), str(out))
    assert len(calls) == 2 and calls[0][1] and not calls[1][1]
    assert "class ModelNew(Model)" in calls[1][0] and "failed the harness (wrong output on wide(trial1)" in calls[1][0]
    assert "Model's own forward\n" not in calls[0][0] and "Model's own forward\n" in calls[1][0]
    assert record["fallbacks"] == [{"verdict": "fail", "reason": "wrong output on wide(trial1): 3 elements",
                                    "then": "Model's forward"}]
    if failures == 1:
        assert record["verdict"] == "pass" and record["passthrough"] and out.read_text() == calls[1][0]
        assert "it replaced a forward the harness failed (wrong output" in record["reason"]
    else:
        assert record["verdict"] == "fail" and not out.exists() and record["output"] is None


@pytest.mark.parametrize("cause,falls_back", [(Cause.CUDA_ERROR, True), (Cause.OUT_OF_MEMORY, False),
                                              (Cause.EXCHANGE_SPACE, False)])
def test_only_a_cuda_error_of_the_forward_itself_makes_it_fall_back(tmp_path, monkeypatch, cause, falls_back):
    """A CUDA error in the candidate's process is the forward's own failure (an illegal address in
    a generated kernel): the next safer forward is tried. Out of memory, or a failure of the
    harness itself, says nothing against the forward: the error stands and nothing is written."""
    calls = []
    failure = ("error", "candidate raised: an illegal memory access was encountered", cause)
    monkeypatch.setattr(driver, "evaluate_with", _harness_failing(1, calls, failure))
    problem = small_level(tmp_path / "level") / "1_pointwise.py"
    out = tmp_path / "new.py"
    record = driver.optimize_problem(str(problem), str(out))
    if falls_back:
        assert len(calls) == 2 and record["verdict"] == "pass" and out.exists()
        assert record["fallbacks"] == [{"verdict": "error", "reason": failure[1], "then": "Model's forward"}]
    else:
        assert len(calls) == 1 and record["verdict"] == "error" and not out.exists()
        assert "fallbacks" not in record


def test_gemm_stand_ins_go_first_when_the_harness_fails_a_forward():
    """The fallbacks in order: ATen's GEMMs in place of kernelwright's, then Model's forward, then none."""
    torch.manual_seed(0)
    model = api._import_source(_SUMMED_GEMM).Model()
    best = api.optimize(model, [torch.rand(64, 256)], problem_source=_SUMMED_GEMM, problem_name="summed_gemm",
                        measure=False)
    best.calls = {"addmm": tune.CallTiming(aten_ms=1.0, chosen="a stand-in")}
    assert driver._fall_back(best, "wrong output") == "ATen's GEMMs in place of kernelwright's"
    assert best.calls["addmm"].chosen is None and not best.passthrough
    assert any("the harness failed the forward with them (wrong output)" in d for d in best.plan.decisions)
    assert driver._fall_back(best, "wrong output again") == "Model's forward"
    assert best.passthrough and "failed the harness (wrong output again)" in best.source
    assert driver._fall_back(best, "still wrong") is None


@pytest.mark.parametrize("fn, x", [
    (lambda x: torch.erfinv(x.clamp(-0.99, 0.99)) * 2 + 1, torch.randn(37, 53)),
    (lambda x: torch.lgamma(x.abs() + 0.1) - x, torch.randn(37, 53)),
    (lambda x: torch.lgamma(x) * 0.5, torch.randint(1, 9, (37, 53))),
    (lambda x: torch.erfinv(x.clamp(-0.9, 0.9)), torch.randn(37, 53).half()),
], ids=["erfinv", "lgamma", "lgamma_of_int64", "erfinv_float16"])
def test_special_functions_fuse_into_the_pointwise_kernel(fn, x):
    _, p, _ = planned_and_run(fn, [x])
    assert len(p.groups) == 1 and not [d for d in p.decisions if ": ATen (" in d], p.decisions
    compile_with_nvrtc(p)


def test_an_aten_call_says_what_it_is_when_it_is_no_single_tensor():
    def fn(x):
        values, indices = torch.topk(x, 3, dim=1)
        torch._assert_async(x.sum() != 0, "never zero")
        return values * 2, indices

    _, p, _ = planned_and_run(fn, [torch.randn(7, 11)])
    reasons = {m.group(1): m.group(2) for m in (re.match(r"\S+ \((.+)\): ATen \((.*)\)$", d) for d in p.decisions) if m}
    assert reasons["topk"] == "returns several values"
    assert reasons["<built-in function getitem>"] == "a value of topk, which runs in ATen"
    assert reasons["_assert_async.msg"] == "returns no tensor: a check or an effect"


@pytest.mark.parametrize("p", [2, 1, 3.5, float("inf"), 0])
def test_dist_decomposes_into_one_rows_kernel(p):
    a, b = torch.randn(7, 33), torch.randn(7, 33)
    _, planned_dist, _ = planned_and_run(lambda a, b: torch.dist(a, b, p) * 2, [a, b])
    assert len(planned_dist.groups) == 1 and not [d for d in planned_dist.decisions if ": ATen (" in d]
    compile_with_nvrtc(planned_dist)


@pytest.mark.parametrize("fn, make", [
    (lambda x: (x >> 3) + 1, lambda: [torch.randint(-1000, 1000, (9, 31))]),
    (lambda x: (x << 5) ^ x, lambda: [torch.randint(-2**31, 2**31 - 1, (9, 31), dtype=torch.int32)]),
    # counts past the type's width and negative ones shift everything out, as ATen does
    (lambda x, s: (x >> s) * 2 + (x << s), lambda: [torch.randint(-1000, 1000, (9, 31)), torch.randint(-3, 70, (9, 31))]),
    (lambda x, s: (x >> s) - (x << s), lambda: [torch.randint(-2**31, 2**31 - 1, (9, 31), dtype=torch.int32),
                                                torch.randint(-3, 40, (9, 31), dtype=torch.int32)]),
    (lambda x: (x << 3) | (x >> 2), lambda: [torch.randint(0, 255, (9, 31), dtype=torch.uint8)]),
    (lambda x, s: torch.bitwise_right_shift(x, s) - torch.bitwise_left_shift(x, 2),
     lambda: [torch.randint(-1000, 1000, (9, 31)), torch.randint(0, 9, (9, 31))]),
], ids=["rshift_scalar", "lshift_int32", "counts_out_of_range", "counts_out_of_range_int32", "uint8", "functions"])
def test_bit_shifts_fuse_into_the_pointwise_kernel(fn, make):
    _, p, _ = planned_and_run(fn, make())
    assert len(p.groups) == 1 and not [d for d in p.decisions if ": ATen (" in d], p.decisions
    compile_with_nvrtc(p)


@pytest.mark.parametrize("fn, make", [
    (lambda x: x.argmax(1) + 1, lambda: torch.randint(-5, 5, (37, 53))),  # ties: the first index
    (lambda x: x.argmin(1), lambda: torch.randint(-2**31, 2**31 - 1, (11, 40, 7), dtype=torch.int32)),
    (lambda x: x.argmax(), lambda: torch.randint(0, 4, (13, 29), dtype=torch.uint8)),
    (lambda x: x.argmin(1), lambda: torch.full((3, 3 * 8192 + 5), -2**63, dtype=torch.int64)),  # the type's bound
    (lambda x: (x * 3 - 1).argmax(-1, keepdim=True), lambda: torch.randint(-5, 5, (37, 53))),
], ids=["ties", "int32_middle_dim", "uint8_whole", "int64_min_split", "of_computed_keepdim"])
def test_argmax_and_argmin_of_integers_run_in_kernels(fn, make):
    _, p, _ = planned_and_run(fn, [make()])
    assert len(p.groups) == 1 and not [d for d in p.decisions if ": ATen (" in d], p.decisions
    compile_with_nvrtc(p)

"""The optimizer's GEMM epilogues on the CPU: which groups go into their GEMM's epilogue (and why
not), the fused call against the group it replaces, and the emitted forward with it."""

import copy
import os

import pytest
import torch

from kernelwright.optimize import api, capture, emit, epilogues, interpret, runtime
from kernelwright.optimize import plan as planning
from optimize_util import MODELS, as_list, assert_matches, build, model_id, planned

# Corpus models whose plan has a pointwise group that can run in a GEMM's epilogue: a Linear
# with a bias, an mm, a Linear on a 3-D input (through ATen's views), per-column parameters, a
# scalar parameter, a per-row value computed earlier, residuals of the pre-activation.
FUSIBLE = [m for m in MODELS if model_id(m)[:3] in (
    "039", "041", "086", "180", "198", "205", "218", "234", "235", "236", "237", "240", "241", "249", "250")]


def _fusions(path):
    plan, error = planned(path)
    assert error is None, error
    return plan, epilogues.candidates(plan)


def test_the_corpus_has_groups_for_the_epilogue():
    assert all(_fusions(m)[1][0] for m in FUSIBLE), [model_id(m) for m in FUSIBLE if not _fusions(m)[1][0]]


def _check_fusions(path, plan, fusions, model, inputs):
    """Runs the plan on the model's values; at each candidate group, the fused GEMM against the
    group's own kernel rendering on the GEMM's result. Returns the groups checked."""
    kernels = {g.id: interpret.torch_kernel(plan.specs[g.id]) for g in plan.groups}
    gemm_args, checked = {}, []

    def on_call(node, args, kwargs):
        if any(f.gemm is node for f in fusions.values()):
            gemm_args[node] = args

    def on_group(g, args):
        fusion = fusions.get(g.id)
        if fusion is None:
            return
        values = fusion.values(gemm_args[fusion.gemm], plan.specs[g.id], args)
        assert_matches(fusion.call(values), kernels[g.id](*args)[0], "%s %s" % (model_id(path), g.name))
        checked.append(g.id)

    with torch.no_grad():
        interpret.run(plan, model, inputs, kernels, on_group, on_call)
    return checked


def test_every_candidate_in_the_corpus_computes_what_its_group_does():
    """The same check over the whole corpus, so that a model added later is covered: every
    group the pass would put in a GEMM's epilogue, on the CPU."""
    checked = 0
    for path in MODELS:
        plan, error = planned(path)
        if error is not None:
            continue
        fusions, _ = epilogues.candidates(plan)
        if fusions:
            _, model, inputs = build(path)
            assert sorted(_check_fusions(path, plan, fusions, model, inputs)) == sorted(fusions), model_id(path)
            checked += len(fusions)
    assert checked >= len(FUSIBLE)


@pytest.fixture(scope="module")
def fused_kernels():
    """The kernels of every FUSIBLE model's programs in the variant their small shapes pick,
    compiled in parallel once, so that no test waits on nvcc for its own."""
    from kernelwright.ops import epilogue as E

    E.build([f.program for m in FUSIBLE for f in _fusions(m)[1][0].values()], ["fp16_split3_stream_k"])


@pytest.mark.cuda
@pytest.mark.parametrize("path", FUSIBLE, ids=model_id)
def test_the_fused_gemm_computes_what_the_gemm_and_its_group_do_on_the_gpu(path, monkeypatch, fused_kernels):
    """The corpus check above on CUDA, where the Hopper GEMM's epilogue runs the program at
    'highest'. The fp16 split is forced: these products are small enough that 'highest' would
    otherwise leave them to cuBLAS and run the program with ATen. A kernel not built by the
    fixture is not compiled here: its program runs after the GEMM."""
    monkeypatch.setenv("KERNELWRIGHT_GEMM_SPLIT", "fp16")
    monkeypatch.setenv("KERNELWRIGHT_EPILOGUE_JIT", "0")
    _, model, inputs = build(path, device="cuda")
    plan = planning.plan(capture.capture(model, inputs))
    fusions, _ = epilogues.candidates(plan)
    assert fusions
    assert sorted(_check_fusions(path, plan, fusions, model, inputs)) == sorted(fusions)


@pytest.mark.parametrize("path", FUSIBLE, ids=model_id)
def test_the_emitted_forward_runs_its_groups_in_the_gemms(path, monkeypatch):
    """The module emitted with every candidate kept: the GEMM's line and its views are gone, the
    group's output comes from kernelwright.ops.linear with the epilogue (its program compiled
    once when the module is imported), and the forward (on the CPU, through ATen) computes what
    Model does."""
    monkeypatch.setattr(runtime, "CPU_PATH", True)
    plan, (fusions, _) = _fusions(path)
    module, model, inputs = build(path)
    source = emit.module_source(plan, open(path).read(), os.path.basename(path), {}, [], epilogues=fusions)
    assert source.count("= _E.compile(lambda y:") == len(fusions)  # compiled once, at import
    assert source.count("_epilogue.bind(") == len(fusions)
    for f in fusions.values():
        assert "        %s = " % f.gemm.name not in source
    new = api._import_source(source).ModelNew(*module.get_init_inputs())
    new.load_state_dict(model.state_dict())
    reference = copy.deepcopy(model)
    with torch.no_grad():
        assert_matches(as_list(new(*inputs)), as_list(reference(*inputs)), model_id(path))


def test_a_full_size_operand_keeps_the_group_apart_and_says_so():
    path = next(m for m in MODELS if model_id(m).startswith("172"))
    plan, (fusions, decisions) = _fusions(path)
    assert not fusions
    assert any("full-size operand" in d for d in decisions), decisions


@pytest.mark.parametrize("shape,kind", [((), "scalar"), ((1,), "scalar"), ((1, 1, 1), "scalar"), ((8,), "column"),
                                         ((1, 1, 8), "column"), ((2, 3, 1), "row"), ((2, 3, 8), "full"),
                                         ((3, 8), None), ((2, 1, 8), None), ((4, 2, 3, 8), None)])
def test_operands_are_read_by_column_row_or_not_at_all(shape, kind):
    """Against an output [2, 3, 8] (rows: 6): a value per column, per row, one value, or none of
    those (a per-batch value, a broadcast the GEMM's rows cannot take)."""
    assert epilogues._kind(shape, (2, 3, 8)) == kind


def test_a_reduction_after_the_gemm_stays_its_own_kernel_and_says_so():
    """The epilogue takes pointwise chains: a softmax over the GEMM's rows is a rows kernel."""
    path = next(m for m in MODELS if model_id(m).startswith("233"))
    plan, (fusions, decisions) = _fusions(path)
    rows = [g for g in plan.groups if plan.specs[g.id].template != "pointwise"]
    assert rows and not any(g.id in fusions for g in rows)
    assert any("pointwise chains" in d for d in decisions), decisions


class _TransposedSquare(torch.nn.Module):
    """A Linear whose square result is read transposed, and one read through a permute inside
    the chain: the same shape as the GEMM's result in another order."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 12)

    def forward(self, x):
        z = self.fc(x)
        return torch.relu(z.t()) * 2.0, torch.sigmoid(self.fc(x) + 1.0).permute(1, 0) - 0.5


def test_a_result_read_in_another_order_is_not_fused():
    model, x = _TransposedSquare(), torch.randn(12, 8)
    plan = planning.plan(capture.capture(model, [x]))
    fusions, decisions = epilogues.candidates(plan)
    assert not fusions, {g: f.expr.source(lambda v: v[0].name) for g, f in fusions.items()}
    assert any("reorders" in d for d in decisions), decisions


class _ToBool(torch.nn.Module):
    """Casts of the GEMM's result: to bool (non-zero), and a comparison back to float."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 12)

    def forward(self, x):
        z = torch.relu(self.fc(x))  # zeros occur
        return torch.where(z.bool(), z * 2.0, z - 3.0) + (z > 1.0).float()


def test_casts_to_bool_and_back_in_the_epilogue():
    model, x = _ToBool(), torch.randn(40, 8) * 3
    plan = planning.plan(capture.capture(model, [x]))
    fusions, decisions = epilogues.candidates(plan)
    assert fusions, decisions
    assert sorted(_check_fusions("to_bool", plan, fusions, model, [x])) == sorted(fusions)

"""The optimizer's GEMM epilogues on the CPU: which groups go into their GEMM's epilogue (and why
not), the fused call against the group it replaces, and the emitted forward with it."""

import concurrent.futures
import copy
import os
import time
from types import SimpleNamespace

import pytest
import torch

from kernelwright.optimize import api, capture, emit, epilogue_translate, epilogues, fusion_timing, interpret, runtime
from kernelwright.optimize import plan as planning
from optimize_util import MODELS, as_list, assert_matches, build, model_id, planned

# Corpus models whose plan has a group that can run in a GEMM's epilogue: a Linear with a bias,
# an mm, a Linear on a 3-D input (through ATen's views), per-column parameters, a scalar
# parameter, a per-row value computed earlier, residuals of the pre-activation; the rows of such
# a chain reduced, with ops on the reduced rows after it.
FUSIBLE = [m for m in MODELS if model_id(m)[:3] in (
    "039", "041", "045", "047", "086", "150", "180", "198", "205", "218", "234", "235", "236", "237", "240", "241", "249", "250",
    "270", "272", "274", "275", "278", "286", "294", "172", "342", "343", "344", "347", "348", "349", "354", "355", "356", "357", "326", "333", "367")]


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
        assert_matches(fusion.call(values), kernels[g.id](*args), "%s %s" % (model_id(path), g.name))
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
    from kernelwright.ops import _epilogue_kernels
    from kernelwright.ops._common import ext

    fusions = [f for m in FUSIBLE for f in _fusions(m)[1][0].values()]
    _epilogue_kernels.load([_epilogue_kernels.key(f.program.code, "fp16_split3_stream_k",
                                                  _epilogue_kernels.REDUCE_CODES.get(f.reduce, 0)) for f in fusions], ext)


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
    # compiled once, at import (and the ops after a reduction, where there are any)
    after = sum(e.op != "result" for f in fusions.values() for e in f.after or ())
    assert source.count("= _E.compile(lambda y:") == len(fusions) + after
    assert source.count("_epilogue.bind(") == len(fusions)
    for f in fusions.values():
        assert "        %s = " % f.gemm.name not in source
    new = api._import_source(source).ModelNew(*module.get_init_inputs())
    new.load_state_dict(model.state_dict())
    reference = copy.deepcopy(model)
    with torch.no_grad():
        assert_matches(as_list(new(*inputs)), as_list(reference(*inputs)), model_id(path))


class _ThreeResiduals(torch.nn.Module):
    """A Linear's result with three tensors of its shape added: one more than the epilogue stages."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 12)

    def forward(self, x, a, b, c):
        return self.fc(x) + a - 0.5 * b + c


def test_full_size_operands_are_read_in_the_epilogue_and_a_third_says_why_not():
    """A residual (172: x + w2(...)) joins the program as its full-size operand (as does its
    SwiGLU's gate), a GRU's interpolation (349: h + z * (n - h)) as two; a third keeps the group
    apart, saying so."""
    for prefix, counts in (("172", [1, 1]), ("349", [2]), ("348", [2])):
        path = next(m for m in MODELS if model_id(m).startswith(prefix))
        _, (fusions, _) = _fusions(path)
        assert [len(f.program.fulls) for f in fusions.values()] == counts, prefix
    inputs = [torch.randn(5, 8)] + [torch.randn(5, 12) for _ in range(3)]
    plan = planning.plan(capture.capture(_ThreeResiduals(), inputs))
    fusions, decisions = epilogues.candidates(plan)
    assert not fusions
    assert any("at most two full-size operands, this one reads 3" in d for d in decisions), decisions


def test_a_group_reading_two_gemms_runs_in_the_later_ones_epilogue():
    """A SwiGLU's silu(gate(x)) * up(x) (326, 172): the group runs in the epilogue of the GEMM
    computed last, the other's result its full-size operand; a group ending in a reshape (the
    product flattened for the next Linear) is viewed back. (An LSTM's x @ W_ih + h @ W_hh, 364,
    is one kernel with its whole cell after the GEMMs: its four gates are slices of that sum.)"""
    for prefix in ("326", "172"):
        path = next(m for m in MODELS if model_id(m).startswith(prefix))
        plan, (fusions, _) = _fusions(path)
        two = [f for f in fusions.values() if sum(epilogues._gemm_behind(a) is not None for a in f.group.inputs) == 2]
        assert two, prefix
        for f in two:
            behind = [epilogues._gemm_behind(a) for a in f.group.inputs]
            other = [b[0] for b in behind if b is not None and b[0] is not f.gemm]
            assert len(other) == 1 and epilogues._position(other[0]) < epilogues._position(f.gemm)
            assert len(f.program.fulls) == 1


@pytest.mark.parametrize("shape,kind", [((), "scalar"), ((1,), "scalar"), ((1, 1, 1), "scalar"), ((8,), "column"),
                                         ((1, 1, 8), "column"), ((2, 3, 1), "row"), ((2, 3, 8), "full"),
                                         ((3, 8), None), ((2, 1, 8), None), ((4, 2, 3, 8), None)])
def test_operands_are_read_by_column_row_or_not_at_all(shape, kind):
    """Against an output [2, 3, 8] (rows: 6): a value per column, per row, one value, or none of
    those (a per-batch value, a broadcast the GEMM's rows cannot take)."""
    assert epilogue_translate.broadcast_kind(shape, (2, 3, 8)) == kind


def test_a_softmax_after_the_gemm_stays_its_own_kernel_and_says_so():
    """The epilogue reduces rows once, last: a softmax over the GEMM's rows (a max, a sum, and
    the division of every element after them) is a rows kernel."""
    fc = torch.nn.Linear(24, 40)
    plan = planning.plan(capture.capture(torch.nn.Sequential(fc, torch.nn.Softmax(-1)), [torch.randn(9, 24)]))
    fusions, decisions = epilogues.candidates(plan)
    assert not fusions and any("reduces 2 times" in d for d in decisions), decisions


class _Reduced(torch.nn.Module):
    """Rows of GEMM results reduced over their columns, each the last op of its group: after a
    chain with a per-column parameter, through a 3-D Linear's views, kept or not kept dims; two
    logsumexps (a max and a sum of exponentials), one with ops after it; reduced rows returned
    with ops on them, and two results of ops on one logsumexp (a group of several outputs)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(24, 40)
        self.fc3 = torch.nn.Linear(24, 16, bias=False)
        self.scale = torch.nn.Parameter(torch.randn(40))

    def forward(self, x, x3):
        z = self.fc(x)
        s = torch.sigmoid(z * self.scale - 0.25).sum(dim=1, keepdim=True)
        m = torch.nn.functional.gelu(self.fc(x)).mean(-1)
        hi = self.fc3(x3).amax(dim=-1)
        lo = torch.relu(torch.mm(x, self.fc.weight.t())).amin(1)
        scaled = torch.tanh(self.fc(x) / 3.0).sum(1, keepdim=True) * 1.5 + 0.5  # ops after the reduction
        lse = torch.logsumexp(self.fc(x) * 2.0, dim=1)
        lse3 = torch.logsumexp(torch.clamp(self.fc3(x3), -0.5, 0.5), -1, keepdim=True)
        rows = torch.sigmoid(torch.mm(x, self.fc.weight.t())).sum(1)
        twice = torch.logsumexp(self.fc(x) * 0.5, 1, keepdim=True)
        return (s, m, hi, lo, scaled, lse, lse3 * torch.nn.functional.mish(lse3), rows, torch.tanh(rows) * 3.0,
                torch.nn.functional.mish(twice), twice * 2.0 - 1.0)


def _reduced_inputs():
    g = torch.Generator().manual_seed(5)
    return [torch.randn(33, 24, generator=g), torch.randn(3, 11, 24, generator=g)]


def test_row_reductions_run_in_the_epilogue():
    """Each reduction becomes the GEMM's reduce= with the chain before it as the program; the
    fused call computes what the group does, and the emitted forward what Model does."""
    model, inputs = _Reduced(), _reduced_inputs()
    plan = planning.plan(capture.capture(model, inputs))
    fusions, decisions = epilogues.candidates(plan)
    assert sorted(f.reduce for f in fusions.values()) == [
        "amax", "amin", "logsumexp", "logsumexp", "logsumexp", "mean", "sum", "sum", "sum"], decisions
    assert sorted(len(f.after) for f in fusions.values() if f.after is not None) == [1, 1, 2, 2]
    assert sorted(_check_fusions("reduced", plan, fusions, model, inputs)) == sorted(fusions)
    source = emit.module_source(plan, api._MODEL_STUB, "reduced", {}, [], epilogues=fusions)
    for r in ("sum", "mean", "amax", "amin", "logsumexp"):
        assert "reduce=%r" % r in source and "rows reduced there (%s)" % r in source
    # The ops after a reduction go to linear's after=, finished with it in one kernel.
    assert "_after = _E.compile(lambda y: ((y * 1.5) + 0.5))" in source and "_after])" in source
    assert "_after1 = _E.compile(lambda y: (_E.tanh(y) * 3.0))" in source and "after=[None, " in source
    assert ".apply(" not in source
    new = api._import_source(emit.module_source(plan, api._MODEL_STUB, "reduced", {}, [], epilogues=fusions),
                             model_class=_Reduced).ModelNew()
    new.load_state_dict(model.state_dict())
    with torch.no_grad():
        assert_matches(as_list(new(*inputs)), as_list(model(*inputs)), "reduced")


class _NotReduced(torch.nn.Module):
    """Reductions the epilogue does not take: one whose rows meet another value after it, one
    over the GEMM's rows, a logsumexp written by hand whose shift is the max even where it is
    infinite (torch gives NaN on such a row, the epilogue its logsumexp)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(24, 40)
        self.per_row = torch.nn.Parameter(torch.randn(33, 1))

    def forward(self, x):
        z = self.fc(x)
        y = self.fc(x) * 0.5
        top = y.amax(-1, keepdim=True)
        by_hand = top + torch.log(torch.exp(y - top).sum(-1, keepdim=True))
        return torch.sigmoid(z).sum(dim=1, keepdim=True) * self.per_row, torch.tanh(self.fc(x)).sum(0), by_hand


def test_a_norm_after_the_gemm_says_why_it_stays_apart():
    """A group norm reads the GEMM's result for its statistics and again for every element."""
    fc = torch.nn.Linear(24, 40)
    plan = planning.plan(capture.capture(torch.nn.Sequential(fc, torch.nn.GroupNorm(4, 40)), [torch.randn(9, 24)]))
    fusions, decisions = epilogues.candidates(plan)
    assert not fusions and any("it reads GEMM results 2 times" in d for d in decisions), decisions


def test_reductions_the_epilogue_does_not_take_say_why():
    model, x = _NotReduced(), torch.randn(33, 24)
    plan = planning.plan(capture.capture(model, [x]))
    fusions, decisions = epilogues.candidates(plan)
    assert not fusions
    assert any("mul, after the reduction, reads a value other than the reduced rows" in d for d in decisions), decisions
    assert any("reduces other dims than the GEMM's columns" in d for d in decisions), decisions
    assert any("is not the row's max where it is finite" in d for d in decisions), decisions


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


class _OutOfReach(torch.nn.Module):
    """GEMMs whose result the epilogue cannot take whole: a GeGLU's halves of one Linear, and a
    batched matmul's."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 14)

    def forward(self, x, a, b):
        value, gate = self.fc(x).chunk(2, dim=-1)
        return value * torch.nn.functional.gelu(gate), torch.tanh(torch.bmm(a, b) * 0.5)


def test_gemms_out_of_the_epilogues_reach_say_why():
    plan = planning.plan(capture.capture(_OutOfReach(), [torch.randn(5, 8), torch.randn(3, 5, 6), torch.randn(3, 6, 7)]))
    fusions, decisions = epilogues.candidates(plan)
    assert not fusions
    assert any("parts of one GEMM's result" in d for d in decisions), decisions
    assert any("it reads bmm, a batched GEMM" in d for d in decisions), decisions


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


def test_a_fusion_is_timed_in_turns_with_the_gemm_and_group_apart(monkeypatch):
    """tune times the fused call and the two apart (the GEMM's chosen call, then the group's)
    alternately, so that a drifting clock weighs on both, and keeps each one's median; the fused
    result is checked first. The clock here is a stand-in that hands out set readings."""
    from kernelwright.optimize import timed, tune

    model, inputs = _Reduced(), _reduced_inputs()
    plan = planning.plan(capture.capture(model, inputs))
    fusions, _ = epilogues.candidates(plan)
    kernels = {g.id: interpret.torch_kernel(plan.specs[g.id]) for g in plan.groups}
    gemm_args, timings, order = {}, {}, []
    readings = []  # fused and apart in turns: fused medians 3, apart 30
    monkeypatch.setattr(timed, "time_median", lambda fn, args, device, budget: order.append(fn) or readings.pop(0))

    def on_call(node, args, kwargs):
        gemm_args[node] = args

    def on_group(g, args):
        f = fusions.get(g.id)
        if f is not None:
            aten = lambda *a: f.gemm.target(*a)  # noqa: E731
            call = tune.CallTiming(1.0, run=aten)
            group = tune.GroupTiming(1.0, None, run=kernels[g.id])
            order.clear()
            readings[:] = [5.0, 50.0, 1.0, 10.0, 3.0, 30.0, 2.0, 20.0, 14.0, 140.0]  # means 5, 50
            timings[g.id] = fusion_timing.measure_fusion(f, gemm_args[f.gemm], plan.specs[g.id], kernels[g.id], args, group,
                                                 call, "cpu", 0.01, 1e-3)
            assert len(order) == 10 and order[0::2] == [order[0]] * 5 and order[1::2] == [order[1]] * 5
            assert order[0] is not order[1]

    with torch.no_grad():
        interpret.run(plan, model, inputs, kernels, on_group, on_call)
    assert sorted(timings) == sorted(fusions)
    for t in timings.values():  # checked against its group, then each median kept and said
        assert t.error < 1e-5, t
        assert (t.fused_ms, t.apart_ms) == (3.0, 30.0) and t.note == "3.0000 ms fused against 30.0000 ms apart", t


def test_a_fusion_builds_its_kernel_ahead_from_the_gemms_operands():
    """Fusion.build_ahead runs the fused call once on the GEMM's operands (zeros for the group's
    vectors, which do not change the kernel) with compiling off: on the CPU no kernel is asked
    for, and the call still has to run."""
    from kernelwright.ops import _epilogue_kernels

    model, inputs = _Reduced(), _reduced_inputs()
    plan = planning.plan(capture.capture(model, inputs))
    fusions, _ = epilogues.candidates(plan)
    kernels = {g.id: interpret.torch_kernel(plan.specs[g.id]) for g in plan.groups}
    started = []

    def on_call(node, args, kwargs):
        for f in fusions.values():
            if f.gemm is node:
                started.append(f.build_ahead(args))

    with torch.no_grad():
        interpret.run(plan, model, inputs, kernels, lambda g, args: None, on_call)
    assert len(started) == len(fusions) and all(a.result() == [] for a in started)
    assert _epilogue_kernels.ENV_JIT not in os.environ


def test_a_fused_kernel_still_compiling_past_the_wait_is_kept_apart(monkeypatch):
    """Measuring waits for a fused GEMM's build up to KERNELWRIGHT_EPILOGUE_WAIT seconds from its
    start; past that the GEMM and its group stay apart (never called fused: the call would
    compile in the foreground) and the note says why."""
    from kernelwright.optimize import tune

    def never(*args, **kwargs):
        raise AssertionError("the fused GEMM was called before its kernel was built")

    class StillCompiling(concurrent.futures.Future):
        def result(self, timeout=None):
            waits.append(timeout)
            raise concurrent.futures.TimeoutError

    waits = []
    fusion = SimpleNamespace(held_weight=False, values=never, call=never)
    call, group = tune.CallTiming(1.0, options={"stand-in": 0.75}), tune.GroupTiming(0.5, None)
    monkeypatch.setenv(fusion_timing.ENV_FUSION_WAIT, "5")
    started = time.monotonic() - 2.0  # the build began 2 s ago: 3 s of the wait are left
    timing = fusion_timing.measure_fusion(fusion, (), None, None, (), group, call, "cpu", 0.01, 1e-3,
                                          (StillCompiling(), started))
    assert len(waits) == 1 and 2.0 < waits[0] <= 3.0
    # Kept apart: no fused figure, and the apart figure is the given GEMM stand-in's and group's.
    assert timing.fused_ms is None and not timing.kept
    assert timing.apart_ms == min(call.options.values()) + group.aten_ms
    assert "still compiling" in timing.note and "cached for the next run" in timing.note


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_the_fusion_wait_must_be_seconds(monkeypatch, value):
    monkeypatch.setenv(fusion_timing.ENV_FUSION_WAIT, value)
    with pytest.raises(ValueError, match="KERNELWRIGHT_EPILOGUE_WAIT must be a number of seconds.*%s" % value):
        fusion_timing.fusion_wait_s()
    monkeypatch.setenv(fusion_timing.ENV_FUSION_WAIT, "inf")
    assert fusion_timing.fusion_wait_s() == float("inf")
    monkeypatch.delenv(fusion_timing.ENV_FUSION_WAIT)
    assert fusion_timing.fusion_wait_s() == fusion_timing.FUSION_WAIT_S

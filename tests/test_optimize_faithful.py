"""Capture checks its graph against the model on the example inputs: an op whose decomposition
computes something else stays whole, and the check leaves the model as it found it."""

import torch
import torch.nn.functional as F

from kernelwright.optimize import capture, faithful, interpret, plan

aten = torch.ops.aten


def _mish_model():
    class M(torch.nn.Module):
        def forward(self, x):
            return F.mish(x) * 2 + x.sum(-1, keepdim=True)

    return M()


def test_an_op_whose_decomposition_computes_otherwise_is_kept_whole(monkeypatch):
    table = capture.decomposition_table()
    table[aten.mish.default] = lambda x: x * 3  # a decomposition that is not mish
    monkeypatch.setattr(capture, "decomposition_table", lambda: dict(table))
    model, x = _mish_model(), torch.randn(5, 37)
    captured = capture.capture(model, [x])
    targets = {n.target for n in captured.graph_module.graph.nodes if n.op == "call_function"}
    assert aten.mish.default in targets
    assert captured.notes and "aten.mish.default" in captured.notes[0] and "kept whole" in captured.notes[0]
    p = plan.plan(captured)
    assert p.decisions[0] == captured.notes[0]
    with torch.no_grad():
        got = interpret.run(p, model, [x], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})[0]
    torch.testing.assert_close(got, model(x))


def test_a_faithful_decomposition_is_kept_and_noted_nowhere():
    model, x = _mish_model(), torch.randn(5, 37)
    captured = capture.capture(model, [x])
    assert not captured.notes
    assert aten.mish.default not in {n.target for n in captured.graph_module.graph.nodes}


def test_rounding_is_not_another_computation():
    want = torch.randn(1000, dtype=torch.float64).float()
    assert faithful._compare(want * (1 + 1e-6), want) is None
    assert "relative L2" in faithful._compare(want * 1.5, want)
    assert faithful._compare(want.half() + 1e-3, want.half()) is None
    assert "NaN" in faithful._compare(torch.where(want > 0, want, float("nan")), want)
    ints = torch.arange(1000)
    assert faithful._compare(torch.where(ints == 3, 0, ints), ints) is None  # one of a thousand flips
    assert "differs in" in faithful._compare(ints.flip(0), ints)
    assert "shape" in faithful._compare(ints[:-1], ints)


def test_capture_leaves_running_statistics_as_they_were():
    bn = torch.nn.BatchNorm2d(6).train()
    x = torch.randn(4, 6, 5, 7) * 3 + 1
    before = {k: v.clone() for k, v in bn.state_dict().items()}
    captured = capture.capture(bn, [x])
    assert captured.mutations  # forward updates the running statistics
    for k, v in bn.state_dict().items():
        assert torch.equal(v, before[k]), k


def test_a_graph_that_draws_random_numbers_is_captured_unchecked():
    class M(torch.nn.Module):
        def forward(self, x):
            return F.dropout(x, 0.5, training=True) + 1

    captured = capture.capture(M(), [torch.randn(8, 9)])
    assert faithful.is_random(captured.graph_module)
    assert not captured.notes


def test_a_forward_that_returns_the_buffer_it_updates_is_captured():
    # The model's output is the buffer itself; putting the buffer back after the check must
    # not change the output the graph is compared with.
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("ema", torch.randn(13))

        def forward(self, x):
            with torch.no_grad():
                self.ema.lerp_(x.mean(0), 0.25)
            return x - self.ema, self.ema

    model, x = M(), torch.randn(7, 13) * 2 + 1
    before = model.ema.clone()
    captured = capture.capture(model, [x])
    assert not captured.notes
    assert torch.equal(model.ema, before)

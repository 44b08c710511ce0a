"""The keep-or-drop decision on given times (no timing is taken here): a generated kernel
within tune.TIE of ATen's time is kept (and said to be a tie), a slower one is not; the
emitted forward against Model's likewise, where it runs a generated kernel; the two forwards timed
in turns."""

from types import SimpleNamespace

import pytest

from kernelwright.optimize import api, timed, tune


@pytest.mark.parametrize(
    "kernel_ms,aten_ms,kept,note",
    [
        (1.0, 2.0, True, ""),  # faster
        (2.0, 2.0, True, "a tie with ATen, kept (2.0000 ms against 2.0000 ms, within 2%)"),
        (2.03, 2.0, True, "a tie with ATen, kept (2.0300 ms against 2.0000 ms, within 2%)"),
        (2.05, 2.0, False, "ATen is faster (2.0000 ms against 2.0500 ms)"),
        (10.0, 2.0, False, "ATen is faster (2.0000 ms against 10.0000 ms)"),
    ],
)
def test_kernel_against_aten(kernel_ms, aten_ms, kept, note):
    assert tune.kernel_kept(kernel_ms, aten_ms) is kept
    assert tune.keep_note(kernel_ms, aten_ms) == note


def _best(generated_ms, chosen):
    """chosen: True (a generated kernel), "epilogue" (a group in a GEMM's epilogue), False (none)."""
    timings = {0: SimpleNamespace(chosen=object() if chosen is True else None), 1: SimpleNamespace(chosen=None)}
    fusions = {1: object()} if chosen == "epilogue" else {}
    return SimpleNamespace(end_to_end=(None, generated_ms), timings=timings, fusions=fusions)


@pytest.mark.parametrize(
    "generated_ms,chosen,kept",
    [
        (0.9, True, True),
        (1.015, True, True),  # a tie, with a generated kernel in it
        (1.015, "epilogue", True),  # a tie, with a generated GEMM epilogue in it
        (1.03, True, False),
        (0.9, False, True),
        (1.0, False, False),  # ATen calls alone must be faster than Model's forward
        (1.015, False, False),
    ],
)
def test_generated_forward_against_models(generated_ms, chosen, kept):
    assert api._forward_kept(_best(generated_ms, chosen), 1.0) is kept


def test_models_and_the_generated_forward_are_timed_in_turns(monkeypatch):
    """The two forwards alternate (a clock drifting between timings taken apart weighs on both)
    and each one's median is kept. The clock is a stand-in that hands out set readings."""
    order, readings = [], [3.0, 1.0, 9.0, 5.0, 4.0, 2.0, 3.5, 1.5, 100.0, 50.0]  # medians 4.0 and 2.0
    monkeypatch.setattr(timed, "time_median", lambda fn, args, device, budget: order.append(fn.func) or readings.pop(0))

    def model(x):
        return x

    def new(x):
        return x

    assert tune.forwards_in_turns([model, new], [1.0], "cpu") == [4.0, 2.0]
    assert order == [model, new] * 5


def test_a_model_of_many_groups_times_each_within_a_share_of_the_measuring_budget():
    """A quarter second a timing for a few groups; a plan whose timings would overrun
    tune.MEASURE_BUDGET_S gets that budget shared among them, fused GEMMs counted."""
    def plan_of(n_groups, n_variants):
        spec = SimpleNamespace(variants=[None] * n_variants)
        return SimpleNamespace(specs={g: spec for g in range(n_groups)})

    assert tune.timing_budget(plan_of(3, 8), {}, 0.25) == 0.25
    assert tune.timing_budget(plan_of(106, 8), {}, 0.25) == pytest.approx(tune.MEASURE_BUDGET_S / 954)
    assert tune.timing_budget(plan_of(106, 8), {1: None, 2: None}, 0.25) == pytest.approx(tune.MEASURE_BUDGET_S / 956)
    assert tune.timing_budget(plan_of(0, 0), {}, 0.25) == 0.25

"""Which kernel templates and launch variants the code generator offers for a reduction's
shape and layout: the choices the GPU then measures."""

import torch

from kernelwright.optimize import capture, plan, split


def _reduction_spec(fn, *inputs):
    class M(torch.nn.Module):
        def forward(self, *xs):
            return fn(*xs)

    p = plan.plan(capture.capture(M(), list(inputs)))
    specs = [p.specs[g.id] for g in p.groups if p.specs[g.id].template == "rows"]
    assert len(specs) == 1, [s.template for s in p.specs.values()]
    return specs[0]


def _threads(spec):
    return sorted(dict(v.defines)["THREADS"] for v in spec.variants if not v.template)


def test_a_reduction_over_a_middle_dim_gets_narrow_rows_that_read_coalesced():
    spec = _reduction_spec(lambda x: x.sum(1), torch.randn(3, 40, 33))
    assert (spec.rows, spec.cols) == (99, 40)
    assert {1, 4} <= set(_threads(spec))


def test_a_reduction_over_the_innermost_dim_keeps_a_row_per_thread_group():
    spec = _reduction_spec(lambda x: x.sum(-1), torch.randn(99, 40))
    assert min(_threads(spec)) >= 8


def test_few_long_rows_are_split_across_cooperating_blocks():
    x = torch.randn(3, 5 * split.MIN_COLS + 7)
    spec = _reduction_spec(lambda x: torch.nn.functional.layer_norm(x, x.shape[-1:]), x)
    splits = [v for v in spec.variants if v.template == "split rows"]
    assert splits, [v.describe() for v in spec.variants]
    for v in splits:
        d = dict(v.defines)
        assert v.cooperative and v.grid == (d["SPLIT"], 3, 1) and v.block == (d["THREADS"], 1, 1)
        # every column in exactly one part, no part empty
        assert d["CHUNK"] * (d["SPLIT"] - 1) < x.shape[1] <= d["CHUNK"] * d["SPLIT"]
        # layer norm's mean, sum and squared deviations: three partials a part of each row
        assert v.workspace >= 16 + 8 * 3 * 3 * d["SPLIT"]
        assert "kw_row_barrier" in spec.cuda_source(v) and "kw_ws" in spec.cuda_source(v)


def test_many_rows_are_not_split():
    spec = _reduction_spec(lambda x: x.amax(-1), torch.randn(1000, split.MIN_COLS))
    assert not [v for v in spec.variants if v.template]


def test_argmax_partials_carry_their_index():
    spec = _reduction_spec(lambda x: x.argmax(), torch.randn(4 * split.MIN_COLS + 3))
    v = next(v for v in spec.variants if v.template == "split rows")
    source = spec.cuda_source(v)
    assert "kw_part_load<long long>" in source and "kw_argbest" in source


def test_max_over_a_dim_becomes_reductions_for_the_halves_in_use():
    x = torch.randn(5, 37, 11)
    spec = _reduction_spec(lambda x: torch.max(x, dim=1)[0] * 2.0, x)
    assert "amax" in spec.ops and "argmax" not in spec.ops
    class M(torch.nn.Module):
        def forward(self, x):
            values, indices = torch.min(x, 1, keepdim=True)
            return values + 1.0, indices
    p = plan.plan(capture.capture(M(), [x]))
    ops = [op for g in p.groups for op in p.specs[g.id].ops]
    assert "amin" in ops and "argmin" in ops
    names = {str(n.target) for n in p.captured.graph_module.graph.nodes}
    assert not any("min.dim" in t for t in names)

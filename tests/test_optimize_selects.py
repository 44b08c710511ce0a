"""Concatenation, constant padding and repeat read inside generated kernels: each element selected
from its source where a kernel needs it (never the whole copy ATen writes), matching eager and
float64 through the kernels' torch renderings, and the CUDA source compiling with NVRTC."""

import pytest
import torch
import torch.nn.functional as F

from kernelwright.optimize import capture, interpret, plan
from optimize_util import assert_matches, compile_with_nvrtc, module_of, planned_and_run


def _fused(fn, inputs, op):
    """Plans fn, checks that ``op`` runs inside a generated kernel, and compares the kernels'
    torch renderings with eager and with float64."""
    _, p, got = planned_and_run(fn, inputs)
    fused = [n for g in p.groups for n in g.nodes if n.target.__name__.startswith(op + ".")]
    assert fused, "%s stayed with ATen: %s" % (op, p.decisions)
    ref = module_of(fn)(*[x.double() if x.is_floating_point() else x for x in inputs])
    ref = [ref] if isinstance(ref, torch.Tensor) else list(ref)
    assert_matches(got, [r.to(g.dtype) for r, g in zip(ref, got)])
    compile_with_nvrtc(p)
    return p


def _signed(*shape, dtype=torch.float32):
    return (torch.randn(*shape) * 3 - 0.5).to(dtype)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cat_of_pointwise_results_is_one_kernel(dim):
    torch.manual_seed(0)
    shapes = [[5, 6, 7], [5, 6, 7], [5, 6, 7]]
    for s, n in zip(shapes, (3, 1, 4)):
        s[dim] = n
    a, b, c = (_signed(*s) for s in shapes)
    p = _fused(lambda a, b, c: torch.cat([a.relu(), b * 2, c.sigmoid()], dim=dim).tanh(), [a, b, c], "cat")
    assert len(p.groups) == 1, p.decisions


def test_cat_of_non_contiguous_views_and_promoted_dtypes():
    torch.manual_seed(1)
    a = _signed(9, 13).t()  # 13 x 9, transposed
    b = _signed(13, 20)[:, ::3]  # 13 x 7, every third column
    c = _signed(13, 2, dtype=torch.float16)
    _fused(lambda a, b, c: torch.cat([a, b, c], 1) * 0.5 - 1, [a, b, c], "cat")


def test_cat_along_the_reduced_dim_feeds_a_reduction():
    torch.manual_seed(2)
    a, b = _signed(33, 129), _signed(33, 70)
    _fused(lambda a, b: torch.cat([a.exp(), b], -1).sum(-1), [a, b], "cat")
    _fused(lambda a, b: torch.softmax(torch.cat([a, b * 3], -1), -1), [a, b], "cat")


def test_cat_with_a_legacy_empty_tensor():
    """torch.cat skips 1-D empty tensors whatever the others' shape."""
    torch.manual_seed(3)
    a, b = _signed(4, 5), _signed(4, 3)
    _fused(lambda a, b: torch.cat([a.abs(), torch.empty(0), b.neg()], 1) + 1, [a, b], "cat")


@pytest.mark.parametrize("pad", [(2, 3), (1, 0, 0, 2), (3, -2, -1, 4), (-1, -1), (0, 0, 2, 2, 1, 1)])
def test_constant_pad_of_a_pointwise_result(pad):
    torch.manual_seed(4)
    x = _signed(3, 8, 11)
    _fused(lambda x: F.pad(torch.sigmoid(x) - 0.3, pad, value=-1.25) * 2, [x], "constant_pad_nd")


def test_constant_pad_in_half_precision():
    torch.manual_seed(5)
    x = _signed(6, 17, dtype=torch.float16)
    _fused(lambda x: F.pad(x * 3, (4, 1, 1, 2), value=0.1) + 1, [x], "constant_pad_nd")


@pytest.mark.parametrize("repeats", [(2, 3), (3, 1, 2), (1, 4, 1, 1)])
def test_repeat_read_by_coordinates(repeats):
    torch.manual_seed(6)
    x = _signed(5, 1, 7)[:, :, ::2] if len(repeats) == 4 else _signed(5, 7)
    shape = tuple(x.shape)
    if len(repeats) < len(shape):
        pytest.skip("repeat needs as many repeats as dims")
    _fused(lambda x: x.relu().repeat(*repeats) + 0.5, [x], "repeat")


def test_cat_of_inputs_alone_is_a_kernel_of_its_own_or_aten():
    """A concatenation of graph inputs reads and writes what ATen's does: it may become a kernel
    (tuning decides) and must match either way."""
    torch.manual_seed(7)
    a, b = _signed(16, 31), _signed(16, 33)
    model = module_of(lambda a, b: torch.cat([a, b], 1))
    p = plan.plan(capture.capture(model, [a, b]))
    with torch.no_grad():
        got = interpret.run(p, model, [a, b], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})
    assert_matches(got, model(a, b))


# -- picks: reads at coordinates another tensor holds (optimize/indexing.py) -----------------


def _indices(high, *shape, negative=True):
    i = torch.randint(0, high, shape)
    return torch.where(torch.rand(shape) < 0.3, i - high, i) if negative else i


def test_embedding_lookup_feeds_a_layer_norm_in_one_kernel():
    torch.manual_seed(10)
    table, pos = _signed(37, 24), _signed(11, 24)
    tokens = torch.randint(0, 37, (3, 11))
    p = _fused(lambda t, w, pe: F.layer_norm(F.embedding(t, w) * 4.9 + pe, (24,)), [tokens, table, pos], "embedding")
    assert len(p.groups) == 1, p.decisions


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather_of_a_pointwise_result(dim):
    torch.manual_seed(11)
    x = _signed(7, 9, 13)
    shape = [7, 9, 13]
    shape[dim] = 5
    idx = _indices(x.shape[dim], *shape, negative=False)  # gather takes none below zero
    _fused(lambda x, i: torch.gather(x.exp() - 1, dim, i) * 2, [x, idx], "gather")


def test_index_select_and_advanced_indexing():
    torch.manual_seed(12)
    x = _signed(10, 6, 8)
    rows, cols = _indices(10, 4), _indices(8, 5, 1)  # advanced indexing counts negatives from the end
    _fused(lambda x, r: x.index_select(0, r).sigmoid(), [x, rows % 10], "index_select")
    # adjacent index tensors: their broadcast shape replaces dims 1 and 2
    _fused(lambda x, c: x[:, c, torch.arange(1, 6) % 8].relu() + 1, [x[:, :, :].transpose(1, 2), cols], "index")
    # index tensors apart: their broadcast shape leads the result
    _fused(lambda x, r, c: x[r, :, c[:, 0]] * 3, [x, rows, _indices(8, 4, 1)], "index")


def test_picked_logit_beside_its_log_sum_exp():
    torch.manual_seed(13)
    x, t = _signed(33, 101) * 3, torch.randint(0, 101, (33,))
    p = _fused(lambda x, t: (torch.logsumexp(x, 1) - x[torch.arange(33), t]).mean(), [x, t], "index")
    assert not [o for g in p.groups for o in g.outputs if o.meta["val"].numel() == x.numel()]


def test_an_index_out_of_range_reads_the_nearest_element_not_outside():
    """ATen raises; the kernel's torch rendering (the same arithmetic as its CUDA source) clamps."""
    torch.manual_seed(14)
    x = _signed(6, 5)
    model = module_of(lambda x, i: torch.gather(x * 2, 1, i))
    i = torch.randint(0, 5, (6, 3))
    p = plan.plan(capture.capture(model, [x, i]))
    bad = i.clone()
    bad[0, 0], bad[1, 1] = 17, -40
    with torch.no_grad():
        (got,) = interpret.run(p, model, [x, bad], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})
    assert got[0, 0] == x[0, 4] * 2 and got[1, 1] == x[1, 0] * 2


def test_picks_by_zero_dim_indices():
    torch.manual_seed(15)
    x, i = _signed(7, 5), torch.tensor(3)
    _fused(lambda x, i: x.index_select(1, i).exp() * 2, [x, i], "index_select")


def _write_through_slice(start, stop, step):
    def fn(x, y):
        h = torch.relu(x).clone()
        h[:, start:stop:step] += torch.sigmoid(y)  # an in-place write through a strided slice
        return h * 2 - 1
    return fn


@pytest.mark.parametrize("start, stop, step", [(2, 11, 3), (0, None, 2), (-5, None, 1), (-9, -2, 4)])
def test_a_write_through_a_slice_is_read_inside_the_kernel(start, stop, step):
    torch.manual_seed(7)
    x = _signed(5, 13)
    n = len(range(13)[start:stop:step])
    p = _fused(_write_through_slice(start, stop, step), [x, _signed(5, n)], "slice_scatter")
    assert len(p.groups) == 1, p.decisions


def test_a_write_into_the_last_rows_feeds_a_reduction():
    torch.manual_seed(8)

    def fn(x):
        h = x * 1.5
        h[-3:] = h[-3:].tanh()
        return h.sum(0), h

    _fused(fn, [_signed(9, 4).t().contiguous().t()], "slice_scatter")


@pytest.mark.parametrize("fn", [lambda x: x.any(1), lambda x: (x > 0.5).all(-1), lambda x: torch.any(x > 1, dim=(0, 2), keepdim=True),
                                lambda x: x.abs().gt(2).any()], ids=["any_dim", "all_dim", "any_dims", "any_all_dims"])
def test_any_and_all_reduce_in_a_kernel(fn):
    torch.manual_seed(9)
    x = _signed(4, 7, 9)
    x[0, :, 0] = 0  # a row of zeros: any is False there
    _fused(fn, [x], "amax")


def test_any_over_an_empty_dim_stays_with_aten():
    x = _signed(3, 0, 5)
    captured = capture.capture(module_of(lambda x: x.any(1)), [x])
    assert not any("amax" in str(n.target) for n in captured.graph_module.graph.nodes)

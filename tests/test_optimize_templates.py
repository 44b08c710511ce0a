"""Which kernel templates and launch variants the code generator offers for a reduction's
shape and layout: the choices the GPU then measures."""

import pytest
import torch
import torch.nn.functional as F

from kernelwright.kernel import nvrtc
from kernelwright.optimize import capture, cluster, codegen, dialects, interpret, kernels, plan, runtime, split


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


def _fused_matches_aten(fn, shape):
    """The plan of ``fn`` on a seeded input, once its kernels (through their torch twins) have
    matched ATen and every variant of each has compiled with NVRTC."""
    class M(torch.nn.Module):
        def forward(self, x):
            return fn(x)

    torch.manual_seed(0)
    x = torch.randn(*shape)
    p = plan.plan(capture.capture(M(), [x]))
    kernels = {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups}
    with torch.no_grad():
        got, want = interpret.run(p, M(), [x], kernels), M()(x)
    got = got[0] if isinstance(got, (list, tuple)) else got
    assert got.dtype == want.dtype
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5, equal_nan=True)
    for g in p.groups:
        _compiles(p.specs[g.id], p.specs[g.id].variants)
    return p


def _compiles(spec, launches):
    if nvrtc.available():
        for launch in launches:
            nvrtc._compile(runtime.PRELUDE + spec.cuda_source(launch), spec.name + ".cu", spec.name,
                           ["--gpu-architecture=compute_90", "-std=c++17"], spec.name)


def test_a_reduction_over_a_middle_dim_gets_narrow_rows_that_read_coalesced():
    spec = _reduction_spec(lambda x: x.sum(1), torch.randn(3, 40, 33))
    assert (spec.rows, spec.cols) == (99, 40)
    assert {1, 4} <= set(_threads(spec))


def _across(spec):
    return [v for v in spec.variants if not v.template and dict(v.defines)["ROWS_ACROSS_LANES"]]


@pytest.mark.parametrize("fn, shape", [(lambda x: x.sum(1), (3, 40, 33)), (lambda x: x.argmax(1), (3, 40, 33)),
                                       (lambda x: torch.softmax(x, 1), (3, 40, 33)), (lambda x: torch.var(x, 0), (50, 7, 9))],
                         ids=["sum", "argmax", "softmax", "var_dim0"])
def test_columns_far_apart_get_variants_with_a_warp_on_consecutive_rows(fn, shape):
    """A warp's lanes on 32 consecutive rows (the row's threads along threadIdx.y), in blocks of
    ROWS_PER_BLOCK x THREADS, with shared memory for one value a thread; each compiles."""
    spec = _reduction_spec(fn, torch.randn(*shape))
    across = _across(spec)
    assert across, [v.describe() for v in spec.variants]
    for v in across:
        d = dict(v.defines)
        assert v.block == (d["ROWS_PER_BLOCK"], d["THREADS"], 1) and d["VEC"] == 1
        assert v.grid == (-(-spec.rows // d["ROWS_PER_BLOCK"]), 1, 1)
    assert "(ROWS_ACROSS_LANES ? THREADS * ROWS_PER_BLOCK : 32)" in spec.cuda_source(across[0])
    _compiles(spec, spec.variants)


@pytest.mark.parametrize("fn", [lambda x: x.amax(1), lambda x: x.amin(1), lambda x: x.argmax(1),
                                lambda x: x.argmin(1), lambda x: (x > 0).amax(1), lambda x: (x > 0).amin(1)],
                         ids=["amax", "amin", "argmax", "argmin", "bool_amax", "bool_amin"])
def test_integer_and_bool_extremes_start_from_their_type_bounds(fn):
    # Integers and bools have no infinity to start a max or min from; the rows at the type's
    # own bounds (and rows of one repeated value) must still find theirs.
    x = torch.randint(-50, 50, (7, 33), dtype=torch.int64)
    x[0] = -2 ** 63
    x[1] = 2 ** 63 - 1
    x[2] = 5

    class M(torch.nn.Module):
        def forward(self, x):
            return fn(x)

    p = plan.plan(capture.capture(M(), [x]))
    assert [p.specs[g.id].template for g in p.groups] == ["rows"], p.decisions
    got = interpret.run(p, M(), [x], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})[0]
    assert got.dtype == M()(x).dtype and torch.equal(got, M()(x))
    for g in p.groups:
        _compiles(p.specs[g.id], p.specs[g.id].variants)


def test_a_reduction_over_the_innermost_dim_keeps_a_row_per_thread_group():
    spec = _reduction_spec(lambda x: x.sum(-1), torch.randn(99, 40))
    assert min(_threads(spec)) >= 8 and not _across(spec)


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
        # the partials combined by one warp, a part a lane, and handed to the block
        assert "q < SPLIT; q += 32" in spec.cuda_source(v) and "kw_by_warp_" in spec.cuda_source(v)


def test_rows_outgrowing_the_l2_are_split_in_rounds(monkeypatch):
    x = torch.randn(7, 4 * split.MIN_COLS + 3)
    row_bytes = x.shape[1] * 4
    # An L2 of five rows: seven do not fit half of it, two rows a round do.
    monkeypatch.setattr(codegen, "l2_bytes", lambda: 5 * row_bytes)
    spec = _reduction_spec(lambda x: torch.nn.functional.layer_norm(x, x.shape[-1:]), x)
    rounds = [v for v in spec.variants if "ROUNDS" in dict(v.defines)]
    assert rounds, [v.describe() for v in spec.variants]
    for v in rounds:
        d = dict(v.defines)
        assert d["ROUNDS"] == 2 and v.cooperative and v.grid == (d["SPLIT"], 2, 1)
        assert d["CHUNK"] * (d["SPLIT"] - 1) < x.shape[1] <= d["CHUNK"] * d["SPLIT"]
        # the partials and barriers stay one set a row, whichever round takes it
        assert v.workspace >= 32 + 8 * 3 * 7 * d["SPLIT"]
        assert "row += gridDim.y" in spec.cuda_source(v)
    _compiles(spec, rounds)
    monkeypatch.setattr(codegen, "l2_bytes", lambda: 20 * row_bytes)
    spec = _reduction_spec(lambda x: torch.nn.functional.layer_norm(x, x.shape[-1:]), x)
    assert not [v for v in spec.variants if "ROUNDS" in dict(v.defines)]


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


_POOLS = {
    "max2d_dilated_padded_ceil": (lambda x: F.max_pool2d(x, 3, 2, 1, 2, ceil_mode=True), (2, 3, 17, 19)),
    "relu_max2d_sigmoid": (lambda x: torch.sigmoid(F.max_pool2d(torch.relu(x), 2)), (2, 3, 16, 18)),
    "avg2d_padded": (lambda x: F.avg_pool2d(x, 3, 1, 1), (2, 3, 11, 13)),
    "avg2d_ceil_exclude_pad": (lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False), (2, 3, 12, 13)),
    "avg2d_divisor_override": (lambda x: F.avg_pool2d(x, 2, 2, 1, divisor_override=3), (2, 3, 9, 9)),
    "avg1d": (lambda x: F.avg_pool1d(x, 8, 1, 4), (2, 5, 67)),
    "max1d_dilated": (lambda x: F.max_pool1d(x, 4, 3, 2, 2), (2, 5, 67)),
    "max3d_dilated": (lambda x: F.max_pool3d(x, 3, 2, 1, 3), (2, 2, 13, 14, 15)),
    "avg3d_scaled": (lambda x: F.avg_pool3d(x, 2) * 2.0, (2, 2, 8, 9, 10)),
    "avg2d_then_channel_sum": (lambda x: F.avg_pool2d(x, 2).sum(dim=1), (2, 4, 8, 8)),
    "max2d_half": (lambda x: F.max_pool2d(x.half(), 2, 2, 1).float(), (2, 3, 9, 9)),
    "max2d_nan": (lambda x: F.max_pool2d(torch.where(x > 1.5, float("nan"), x), 2), (2, 3, 10, 10)),
}


@pytest.mark.parametrize("case", sorted(_POOLS))
def test_pooling_fuses_into_a_kernel_that_matches_aten(case):
    p = _fused_matches_aten(*_POOLS[case])
    assert any(op.endswith(("pool2d", "pool3d")) for g in p.groups for op in p.specs[g.id].ops)


def test_padded_taps_of_a_tensor_are_predicated_loads_and_of_a_computed_value_clamped():
    # A tensor's taps in the padding read nothing (no clamp); a computed value cannot be left
    # uncomputed, so its taps are clamped and masked.
    for fn, shape, clamps in ((lambda x: F.max_pool1d(x, 4, 1, 2, 3), (2, 3, 17), False),
                              (lambda x: F.avg_pool2d(torch.relu(x), 3, 1, 1), (2, 3, 13, 17), True)):
        p = _fused_matches_aten(fn, shape)
        source = p.specs[p.groups[0].id].cuda_source(p.specs[p.groups[0].id].variants[0])
        assert ("kw_iclamp" in source) == clamps and (" ? static_cast<float>(kw_load(" in source) != clamps


@pytest.mark.parametrize("fn, shape, op", [
    (lambda x: F.adaptive_max_pool2d(x, 1) * 2, (2, 3, 9, 7), "amax"),
    (lambda x: F.adaptive_max_pool2d(torch.where(x > 1.5, float("nan"), x), (3, 2)), (2, 3, 9, 8), "max_pool2d"),
    (lambda x: F.adaptive_max_pool3d(x, (2, 1, 3)), (2, 2, 4, 5, 6), "max_pool3d"),
    (lambda x: F.adaptive_max_pool1d(x, 5), (2, 3, 35), "max_pool2d"),
])
def test_adaptive_max_pooling_values_fuse_where_its_windows_are_a_max_or_a_max_pooling(fn, shape, op):
    p = _fused_matches_aten(fn, shape)
    assert any(o == op for g in p.groups for o in p.specs[g.id].ops)


@pytest.mark.parametrize("fn", [lambda x: x / x.abs().max(), lambda x: x - torch.where(x > 1.5, float("nan"), x).min()])
def test_max_and_min_of_every_element_fuse_as_amax_and_amin(fn):
    p = _fused_matches_aten(fn, (5, 37))
    assert any(o in ("amax", "amin") for g in p.groups for o in p.specs[g.id].ops)


def test_adaptive_max_pooling_of_uneven_windows_stays_with_aten():
    class M(torch.nn.Module):
        def forward(self, x):
            return F.adaptive_max_pool2d(x, (3, 4))

    p = plan.plan(capture.capture(M(), [torch.randn(2, 3, 8, 9)]))
    assert not p.groups


def test_pooling_whose_indices_are_used_stays_with_aten():
    class M(torch.nn.Module):
        def forward(self, x):
            values, indices = F.max_pool2d(x, 2, return_indices=True)
            return values, indices

    p = plan.plan(capture.capture(M(), [torch.randn(2, 3, 8, 8)]))
    assert not p.groups
    assert any("max_pool2d_with_indices" in str(n.target) for n in p.captured.graph_module.graph.nodes)


def test_a_reduction_over_size_one_dims_compiles_in_every_variant():
    """One column: the column coordinates are literal zeros, so a dense read of the row must not
    name the loop's ``col`` outside the loop."""
    spec = _reduction_spec(lambda x: torch.nn.functional.gelu(x - x.amax(1, keepdim=True)), torch.randn(37, 1))
    _compiles(spec, spec.variants)


_SCANS = {
    "cumsum_last_dim": (lambda x: torch.cumsum(x, 1), (37, 300)),
    "cumprod_after_pointwise": (lambda x: torch.cumprod(1 + 0.01 * x, -1), (37, 300)),
    "cumsum_middle_dim": (lambda x: torch.cumsum(x, 1), (3, 45, 7)),
    "masked_cumsum_scaled": (lambda x: torch.cumsum(x * (x > 0), 1) * 2.0, (5, 1000)),
    "reverse_cumsum": (lambda x: torch.cumsum(x.flip(1), 1).flip(1), (5, 70)),
    "exclusive_cumsum": (lambda x: torch.cat((torch.zeros_like(x.select(1, 0).unsqueeze(1)),
                                              torch.cumsum(x.narrow(1, 0, x.size(1) - 1), 1)), 1), (6, 33)),
    "cumsum_half": (lambda x: torch.cumsum(x.half(), 1).float(), (4, 129)),
    "cumsum_of_bools": (lambda x: torch.cumsum(x > 0, 1), (4, 77)),
    "two_scans": (lambda x: torch.cumsum(x, 1) + torch.cumprod(torch.sigmoid(x), 1), (4, 50)),
    "one_column": (lambda x: torch.cumsum(x, 1) + 1, (4, 1)),
    "logcumsumexp_large": (lambda x: torch.logcumsumexp(x * 40.0, 1) - 3.0, (6, 301)),
    # -inf entries (a masked start), equal infinities, a NaN that stays
    "logcumsumexp_infinities": (lambda x: torch.logcumsumexp(torch.where(x > 0.5, float("inf"), torch.where(
        x < -0.3, float("-inf"), x)) + torch.where(x > 2.5, float("nan"), 0.0), -1), (5, 90)),
}


@pytest.mark.parametrize("case", sorted(_SCANS))
def test_scans_fuse_into_a_kernel_that_matches_aten(case):
    p = _fused_matches_aten(*_SCANS[case])
    assert any(p.specs[g.id].template == "scan" for g in p.groups)


def test_a_half_logcumsumexp_is_rounded_once_from_double():
    # ATen's CPU kernel rounds to float16 as it goes; the kernel carries in double and rounds
    # each output once, so it is never further from float64 than ATen.
    class M(torch.nn.Module):
        def forward(self, x):
            return torch.logcumsumexp(x, 1)

    torch.manual_seed(0)
    x = (torch.randn(3, 45, 7) * 3).half()
    p = plan.plan(capture.capture(M(), [x]))
    assert [p.specs[g.id].template for g in p.groups] == ["scan"]
    with torch.no_grad():
        got = interpret.run(p, M(), [x], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})
    got = got[0] if isinstance(got, (list, tuple)) else got
    exact = torch.logcumsumexp(x.double(), 1)
    assert got.dtype == torch.float16
    assert torch.equal(got, exact.half())
    assert (got.double() - exact).abs().max() <= (M()(x).double() - exact).abs().max()
    _compiles(p.specs[p.groups[0].id], p.specs[p.groups[0].id].variants)


def test_a_scan_of_a_scan_is_two_kernels():
    class M(torch.nn.Module):
        def forward(self, x):
            return torch.cumsum(torch.cumsum(x, 1), 1)

    p = plan.plan(capture.capture(M(), [torch.randn(4, 50)]))
    assert [p.specs[g.id].template for g in p.groups] == ["scan", "scan"]
    assert any("a scan of a scan" in d for d in p.decisions)


def test_flips_are_read_through_instead_of_copied():
    class M(torch.nn.Module):
        def forward(self, x):
            return torch.cumsum(x.flip(1), 1).flip(1)

    p = plan.plan(capture.capture(M(), [torch.randn(5, 70)]))
    ops = [p.specs[g.id].ops for g in p.groups]
    # The flip before the scan is read mirrored; the one after reads the scan's output away from
    # its column, so it is a copy of its own (ATen's: a kernel of nothing but a copy gains nothing).
    assert ops == [["flip", "cumsum"]], ops


_VARIANCES = {
    "layer_norm": lambda x: F.layer_norm(x, x.shape[-1:]),
    "group_norm": lambda x: F.group_norm(x.view(6, 8, -1), 4),
    "var_unbiased": lambda x: torch.var(x, dim=-1),
    "std_population": lambda x: torch.std(x, dim=-1, correction=0),
    "var_of_one_column": lambda x: torch.var(x[:, :1], dim=-1, correction=0),
}


@pytest.mark.parametrize("case, offset", [(c, o) for c in sorted(_VARIANCES) for o in (0.0, 3e3)]
                         + [("var_unbiased", 1e5), ("std_population", 1e5)])
def test_a_float32_variance_reads_its_row_once_and_stays_float32_accurate(case, offset):
    """One statistics loop (sum and sum of squares in double, of the values less the row's
    first) is as accurate as ATen's two passes, also where the mean is thousands of standard
    deviations from zero; at 2e5 of them, summing the values themselves gave a relative error
    of 4.0e-6, 180x eager's. (The norms subtract the mean in float32 there: capture keeps
    them whole, their decomposition being that far from ATen's kernel.)"""
    fn = _VARIANCES[case]

    class M(torch.nn.Module):
        def forward(self, x):
            return fn(x)

    torch.manual_seed(0)
    x = torch.randn(48, 37) * 0.5 + offset
    p = plan.plan(capture.capture(M(), [x]))
    (group,) = [g for g in p.groups if p.specs[g.id].template == "rows"]
    _, _, lines, _, _, _ = kernels.rows(group.nodes, group.outputs, dialects.Cuda())
    assert sum(1 for seg in lines if isinstance(seg, kernels.Loop) and seg.reduces) == 1
    with torch.no_grad():
        got = interpret.run(p, M(), [x], {g.id: interpret.torch_kernel(p.specs[g.id]) for g in p.groups})
        want, eager = fn(x.double()), fn(x)
    got = got[0] if isinstance(got, (list, tuple)) else got
    scale = float(want.norm()) or 1.0
    err, eager_err = float((got.double() - want).norm()) / scale, float((eager.double() - want).norm()) / scale
    assert err <= max(2 * eager_err, 1e-6), (err, eager_err)
    _compiles(p.specs[group.id], p.specs[group.id].variants)


@pytest.mark.parametrize("layout", ["channels_last", "permuted"])
def test_pointwise_kernels_walk_their_output_in_memory_order(layout):
    """Consecutive threads take consecutive addresses of a non-contiguous output, and an input
    laid out the same way is read at the same flat index: both coalesce."""
    torch.manual_seed(0)
    x = torch.randn(2, 6, 5, 7)
    x = x.to(memory_format=torch.channels_last) if layout == "channels_last" else x.permute(0, 2, 3, 1)
    fn = lambda x: torch.sigmoid(x) * 2.0 - x  # noqa: E731

    class M(torch.nn.Module):
        def forward(self, x):
            return fn(x)

    p = plan.plan(capture.capture(M(), [x]))
    (g,) = p.groups
    spec = p.specs[g.id]
    source = spec.cuda_source(spec.variants[0])
    assert "KW_ROW_LOAD(0, i)" in source and "kw_store(KW_OUT_AT(0, i)" in source, source
    with torch.no_grad():
        got = interpret.run(p, M(), [x], {g.id: interpret.torch_kernel(spec)})
    got = got[0] if isinstance(got, (list, tuple)) else got
    assert got.stride() == fn(x).stride()
    torch.testing.assert_close(got, fn(x), rtol=1e-6, atol=1e-6)
    _compiles(spec, spec.variants)


def test_long_rows_walked_twice_get_a_cluster_that_holds_them_on_chip():
    x = torch.randn(300, 30000)
    spec = _reduction_spec(lambda x: F.layer_norm(x, x.shape[-1:]), x)
    clusters = [v for v in spec.variants if v.template == "cluster rows"]
    assert clusters, [v.describe() for v in spec.variants]
    for v in clusters:
        d = dict(v.defines)
        # persistent: no more clusters than rows or than the SMs hold; rows taken from a counter
        assert v.grid[0] == d["CLUSTER"] and 1 <= v.grid[1] <= min(300, codegen.sm_count() // d["CLUSTER"] * (2048 // d["THREADS"]))
        assert v.block == (d["THREADS"], 1, 1) and not v.cooperative and v.workspace == cluster.WORKSPACE
        assert d["CHUNK"] * (d["CLUSTER"] - 1) < x.shape[1] <= d["CHUNK"] * d["CLUSTER"]
        assert d["CHUNK"] == d["PIECE"] * cluster.PIECES and d["PIECE"] % 16 == 0
        assert v.shared == -(-d["CHUNK"] * 4 // 16) * 16 <= cluster.SMEM_BUDGET
        source = spec.cuda_source(v)
        # read from global memory once (bulk copies, or loads where unaligned), every loop
        # from the copy; the first loop waits for each piece, the last refills it. The one
        # other read is the row's first element, which the variance's sums are taken from.
        assert "kw_bulk_copy(kw_cache0 + (kw_fb - col_begin), in0 + kw_src," in source and source.count("in0[") == 1
        assert "const bool kw_bulk = ((reinterpret_cast<unsigned long long>(in0) & 15ull) == 0);" in source
        # each loop twice: VEC columns a thread where the output is aligned, one otherwise
        assert d["VEC"] == 4 and source.count("kw_copy_vec<VEC>(kw_stage0[kw_u], kw_cache0 + (kw_base - kw_row_base));") == 2
        assert source.count("KW_ROW_LOAD(0,") == 4 and source.count("kw_mbar_wait(") == 1, source
        assert source.index("kw_mbar_wait(") < source.index("kw_next_row = kw_cluster_load") < source.rindex(
            "kw_bulk_copy(")
        # one barrier to learn the first row, one for the statistics, one before leaving
        assert "__cluster_dims__(CLUSTER, 1, 1)" in source and source.count("kw_cluster_sync();") == 3
    _compiles(spec, spec.variants)


def test_cluster_rows_off_16_bytes_keep_a_cluster_a_row_filled_by_loads():
    spec = _reduction_spec(lambda x: torch.softmax(x, -1), torch.randn(40, 30001))
    clusters = [v for v in spec.variants if v.template == "cluster rows"]
    assert clusters
    for v in clusters:
        d = dict(v.defines)
        assert v.grid == (d["CLUSTER"], 40, 1) and not v.workspace and "PIECE" not in d
        assert d["CHUNK"] % 16 == 0 and d["CHUNK"] * (d["CLUSTER"] - 1) < 30001 <= d["CHUNK"] * d["CLUSTER"]
        source = spec.cuda_source(v)
        assert "kw_fill_row(kw_cache0, in0 + kw_row_base, (int)(col_end - col_begin));" in source
        assert "kw_bulk" not in source and "kw_mbar" not in source and "in0[" not in source
        assert source.count("KW_ROW_LOAD(0,") == 2 and source.count("kw_cluster_sync();") == 2
    _compiles(spec, clusters)


@pytest.mark.parametrize("case", ["one_loop", "short_rows", "strided"])
def test_rows_read_once_or_cached_anyway_get_no_cluster(case):
    fn, x = {"one_loop": (lambda x: x.sum(-1), torch.randn(300, 30000)),
             "short_rows": (lambda x: torch.softmax(x, -1), torch.randn(300, 1000)),
             "strided": (lambda x: torch.softmax(x, 1), torch.randn(4, 30000, 8))}[case]
    spec = _reduction_spec(fn, x)
    assert not [v for v in spec.variants if v.template == "cluster rows"]


@pytest.mark.parametrize("case", ["group_norm_view", "instance_norm_unit_batch"])
def test_rows_read_through_a_reshape_at_the_rows_flat_index(case):
    """A norm over a reshaped input reads it at ``row * cols + col`` (no coordinate
    arithmetic), which the cluster template can serve from shared memory."""
    fn, x = {"group_norm_view": (lambda x: F.group_norm(x, 4), torch.randn(2, 8, 30, 40)),
             "instance_norm_unit_batch": (lambda x: F.instance_norm(x), torch.randn(1, 6, 30, 40))}[case]
    p = _fused_matches_aten(fn, x.shape)
    rows = [p.specs[g.id] for g in p.groups if p.specs[g.id].template == "rows"]
    assert rows and all("KW_ROW_LOAD(0, " in spec.cuda_body for spec in rows), [s.cuda_body for s in rows]


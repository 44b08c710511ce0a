"""linear(..., reduce=...): each row of the GEMM's result (after its epilogue) reduced, on CUDA
inside the GEMM's epilogue as per-tile partials that one small reduction finishes, elsewhere by
torch after the product; against the chain and the reduction run by PyTorch in float64."""

import math
import os

import pytest
import torch
import torch.nn.functional as F

import kernelwright.ops as K
from kernelwright._build import sources
from kernelwright.kernel import KernelCompileError, nvrtc
from kernelwright.ops import _epilogue_finish, _epilogue_kernels
from kernelwright.ops import epilogue as E
from reference import poison
from test_ops_linear import make, precision, rel_err
from test_ops_linear_epilogue import SMOOTH, T, _can_build, expected, kernels_built_ahead, run_in_variant, vectors

REDUCE = {"sum": torch.sum, "mean": torch.mean, "amax": torch.amax, "amin": torch.amin,
          "logsumexp": torch.logsumexp}
CODES = {"sum": 1, "mean": 1, "amax": 2, "amin": 3, "logsumexp": 4}  # the kernel's reduction for each
CHAIN = SMOOTH[0]  # gelu(y * 0.5 + column): a vector operand, a transcendental
# The kernels the small shapes below pick: stream-K, the cross products fused ('highest') or the
# single scaled product ('high').
SMALL_VARIANTS = ["fp16_split3_stream_k", "fp16_scaled_stream_k"]


def _program(c=0):
    """CHAIN's program, reading ``c`` as its column vector (0: code alone, for keys)."""
    return E.compile(lambda y: CHAIN[1](E, y, c, None))


@pytest.fixture(scope="module", autouse=True)
def reduce_kernels():
    """The kernels these tests run; any other runs its product, then torch's reduction."""
    def keys():
        code = _program().code
        return ([_epilogue_kernels.key(code, v, r) for v in SMALL_VARIANTS for r in (1, 2, 3, 4)]
                + [_epilogue_kernels.key(code, v, r) for v in _epilogue_kernels.variants() for r in (1, 4)]
                + [_epilogue_kernels.key(E.compile(lambda y: y * 2.0).code, v, 4) for v in SMALL_VARIANTS])

    yield from kernels_built_ahead(keys)


def _partials(x, w, b, program, code):
    """The op's rows to reduce: [m, ceil(n / 128)] where the kernel reduced, else [m, n]."""
    return torch.ops.kernelwright.linear_program(x, w, b, program.code, program.consts, list(program.columns),
                                                 list(program.rows), [], None, None, code)


@pytest.mark.parametrize("reduce", sorted(REDUCE))
# Rows and columns off the 128 x 128 tile, n off 8 (padded: reduced after the product), k short
# and long.
@pytest.mark.parametrize("mnk", [(7, 5, 3), (257, 136, 64), (300, 517, 1000), (640, 384, 4096)], ids=str)
def test_reductions_match_float64(device, reduce, mnk):
    x, w, b = make(*mnk, torch.float32, device)
    c, _ = vectors(mnk[0], mnk[1], device, 3)
    fn = CHAIN[1]
    want = REDUCE[reduce](expected(fn, x, w, b, c, c), -1)
    program = _program(c)
    for mode in ("highest", "high"):
        with precision(mode):
            eager = REDUCE[reduce](fn(T, F.linear(x, w, b), c, None), -1)
            limit = max(2.0 * rel_err(eager, want), 2e-6 if mode == "highest" else 2e-2)
            poison(device)
            got = K.linear(x, w, b, epilogue=program, reduce=reduce)
            assert got.shape == (mnk[0],) and got.dtype == torch.float32
            assert rel_err(got, want) <= limit, (mode, rel_err(got, want), limit)
            cache = K.WeightCache()
            for _ in range(2):
                assert rel_err(K.linear(x, w, b, cache=cache, epilogue=program, reduce=reduce), want) <= limit
            if device == "cuda" and _can_build() and mnk[1] % 8 == 0 and mnk[0] >= 96:
                # In the epilogue: a partial per row per tile of 128 columns, not the whole row.
                rows = _partials(x, w, b, program, CODES[reduce])
                assert rows.shape == (mnk[0], math.ceil(mnk[1] / 128)), rows.shape


def test_activations_batches_views_and_empty_rows(device):
    x, w, b = make(96, 40, 24, torch.float32, device)
    x3 = x.view(4, 24, 24).transpose(0, 1)  # not contiguous
    w64 = w.double()
    for act, f in (("relu", torch.relu), ("gelu", F.gelu), (None, lambda t: t)):
        got = K.linear(x3, w, b, activation=act, reduce="amax")
        want = f(F.linear(x3.double(), w64, b.double())).amax(-1)
        assert got.shape == (24, 4) and rel_err(got, want) < 1e-5
    assert K.linear(x[:0], w, b, reduce="sum").shape == (0,)
    assert K.linear(x[:5], w, None, reduce="mean").shape == (5,)


def test_nan_and_infinity_reach_the_reduction(device):
    x, w, b = make(130, 64, 32, torch.float32, device)
    b[3], b[40] = float("nan"), float("inf")
    program = E.compile(lambda y: y * 2.0)
    for reduce in REDUCE:
        want = REDUCE[reduce](F.linear(x.double(), w.double(), b.double()) * 2.0, -1)
        got = K.linear(x, w, b, epilogue=program, reduce=reduce)
        assert torch.equal(got.isnan(), want.isnan()) and torch.equal(got.isinf(), want.isinf()), reduce


def test_logsumexp_of_infinite_rows(device):
    """Rows whose every value is -inf, or +inf, or whose largest is: the running max and sum
    merge equal infinite maxes without making exp(inf - inf)."""
    x, w, b = make(200, 296, 40, torch.float32, device)
    program = E.compile(lambda y: y * 2.0)
    for fill in (float("-inf"), float("inf")):
        for columns in (slice(None), slice(130, 131), slice(0, 296, 7)):
            b2 = b.clone()
            b2[columns] = fill
            want = torch.logsumexp(F.linear(x.double(), w.double(), b2.double()) * 2.0, -1)
            got = K.linear(x, w, b2, epilogue=program, reduce="logsumexp")
            assert torch.equal(got.isinf(), want.isinf()) and not got.isnan().any(), (fill, columns)
            finite = want.isfinite()
            if finite.any():
                assert rel_err(got[finite], want[finite]) < 1e-5, (fill, columns)


@pytest.mark.cuda
def test_the_program_after_a_reduction_queues_behind_the_gpu():
    """Program.apply, the ops on the rows a GEMM's epilogue reduced, only queues work: a number
    made into a device tensor from the host would wait for everything queued before it."""
    z = torch.randn(64, 1, device="cuda")
    program = E.compile(lambda y: E.gelu(y * 1.5 + 0.25) * E.tanh(y) - 2.0)
    program.apply(z)  # the first launch of each kernel loads it, which may wait for the device
    torch.cuda.synchronize()
    torch.cuda._sleep(2_000_000_000)  # about a second of a busy GPU
    busy = torch.cuda.Event()
    busy.record()
    out = program.apply(z)
    assert not busy.query(), "apply() waited for the work queued before it"
    want = F.gelu(z.double() * 1.5 + 0.25) * torch.tanh(z.double()) - 2.0
    assert rel_err(out, want) < 1e-6


# Programs on the reduced rows: mish (softplus's threshold a constant), a clamp of a scaled row.
AFTER = [(lambda r: r * E.tanh(E.softplus(r, 1.0, 20.0)), lambda t: t * torch.tanh(F.softplus(t))),
         (lambda r: E.clamp(r * 2.0 - 0.5, -1.0, 1.0), lambda t: torch.clamp(t * 2.0 - 0.5, -1.0, 1.0))]


@pytest.mark.parametrize("reduce", sorted(REDUCE))
def test_programs_after_the_reduction_match_float64(device, reduce):
    """after=: the reduced rows themselves and programs of them, every one from the same
    partials, in one finishing kernel on CUDA; shaped like x without its last dim."""
    x, w, b = make(300, 517, 200, torch.float32, device)
    x3 = x.view(3, 100, 200).transpose(0, 1)  # not contiguous
    c, _ = vectors(300, 517, device, 3)
    program = _program(c)
    rows = REDUCE[reduce](expected(CHAIN[1], x3, w, b, c, c), -1)
    outs = K.linear(x3, w, b, epilogue=program, reduce=reduce, after=[None] + [E.compile(f) for f, _ in AFTER])
    assert len(outs) == 3 and all(o.shape == (100, 3) and o.dtype == torch.float32 for o in outs)
    assert rel_err(outs[0], rows) < 2e-6, rel_err(outs[0], rows)
    for got, (_, twin) in zip(outs[1:], AFTER):
        assert rel_err(got, twin(rows)) < 2e-6, (reduce, rel_err(got, twin(rows)))
    # A function of the rows is compiled on the call; the rows alone need no list.
    alone = K.linear(x3, w, b, epilogue=program, reduce=reduce, after=[AFTER[1][0]])
    assert len(alone) == 1 and torch.allclose(alone[0], outs[2], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("reduce", sorted(REDUCE))
@pytest.mark.parametrize("rows, tiles", [(7, 1), (130, 5), (33, 64), (5, 100)], ids=str)
def test_the_finishing_kernel_matches_its_twin(device, reduce, rows, tiles):
    """Partials with NaN, +inf and -inf among them, whole rows of -inf, more tiles than a
    warp's lanes and rows that leave a block's last warps idle: the kernel (on CUDA) and the
    torch twin agree, NaN and infinities where torch has them."""
    g = torch.Generator().manual_seed(rows * 131 + tiles)
    parts = (torch.randn(rows, tiles, generator=g) * 3).to(device)
    parts[0] = float("-inf")
    parts[min(1, rows - 1), -1] = float("inf")
    parts[min(2, rows - 1), 0] = float("nan")
    parts[min(3, rows - 1), :: 2] = float("-inf")
    programs = [None, E.compile(AFTER[0][0]), E.compile(lambda r: r * 1.5)]
    got = _epilogue_finish.finish(parts, reduce, 517, programs)
    # torch in float64 on the partials as the rows' values (a mean's partials are sums).
    p64 = parts.double()
    rows = p64.sum(-1) / 517 if reduce == "mean" else REDUCE[reduce](p64, -1)
    want = [rows, AFTER[0][1](rows), rows * 1.5]
    for a, b in zip(got, want):
        assert torch.equal(a.isnan(), b.isnan()) and torch.equal(a.isinf(), b.isinf()), (reduce, a, b)
        finite = b.isfinite()
        assert rel_err(a[finite], b[finite]) < 1e-6, (reduce, rel_err(a[finite], b[finite]))


@pytest.mark.skipif(not nvrtc.available(), reason="needs cuda-bindings and an NVRTC library")
@pytest.mark.parametrize("reduce", sorted(REDUCE))
def test_finishing_kernels_compile_without_a_gpu(reduce, monkeypatch):
    """With the CUDA headers torch's wheels bring (no CCCL: kw/gemm.h must not need libcu++)."""
    found = nvrtc._include_dirs()
    monkeypatch.setattr(nvrtc, "_include_dirs", lambda: [d for d in found if os.path.basename(d) != "cccl"])
    programs = [None, E.compile(AFTER[0][0]), E.compile(AFTER[1][0]), E.compile(lambda r: E.where(E.gt(r, 0.0), r, 0.0))]
    text, name = _epilogue_finish.source(reduce, tuple(None if p is None else tuple(p.code) for p in programs))
    ptx, meta = nvrtc._compile(nvrtc.prelude(text, name + ".cu", None) + text, name + ".cu", "&" + name, [
        "--gpu-architecture=compute_90", "-std=c++17", "-I" + os.path.join(sources.find_csrc(), "include")], name)
    assert meta["format"] == "ptx" and (".entry " + meta["lowered"]).encode() in ptx


@pytest.mark.cuda
def test_a_finishing_kernel_that_does_not_compile_leaves_torch_to_finish(monkeypatch, capfd):
    """Said once; the results are the twin's, and the same call again does not try again."""
    def refuse(reduce, codes):
        raise KernelCompileError("NVRTC could not compile kernel 'x' (x.cu):\nno header", "no header", "x.cu", None)

    monkeypatch.setattr(_epilogue_finish, "_op", refuse)
    parts = torch.randn(9, 3, device="cuda")
    programs = [None, E.compile(lambda r: r * 3.0 - 1.0)]
    for _ in range(2):
        got = _epilogue_finish.finish(parts, "logsumexp", 300, programs)
        for a, b in zip(got, _epilogue_finish.twin(parts, "logsumexp", 300, programs)):
            assert torch.equal(a, b)
    assert capfd.readouterr().err.count("finishing kernel did not compile") == 1


def test_the_finishing_op_binds_its_arguments():
    """The finishing kernel as a custom op: the partials, the mean's count and each program's
    constants in; an output a program, [rows] each; a warp a row (checked without a GPU)."""
    programs = [None, E.compile(AFTER[1][0]), E.compile(lambda r: r * 1.5)]
    op = _epilogue_finish._op("logsumexp", tuple(None if p is None else tuple(p.code) for p in programs))
    assert op.schema.endswith("(Tensor parts, float count, float k1_0, float k1_1, float k1_2, float k1_3, "
                              "float k2_0) -> (Tensor, Tensor, Tensor)"), op.schema
    definition = op._definition
    call = definition.binding.check(definition.binding.bind((torch.randn(7, 5), 517.0, 2.0, 0.5, -1.0, 1.0, 1.5), {}),
                                    launching=False)
    outs = definition.binding.allocate_outputs(call, definition.outputs, launching=False)
    assert [o.shape for o in outs] == [(7,)] * 3
    assert definition.launch(*call.values) == (2, 128)


def test_gradients_flow_through_the_reduction(device):
    """Where a gradient is recorded the result is written and reduced by torch: autograd sees
    both, and the epilogue's vectors get theirs."""
    x, w, b = (t.double() for t in make(9, 7, 5, torch.float32, device))
    c = torch.randn(7, dtype=torch.float64, device=device)
    for reduce in REDUCE:
        torch.autograd.gradcheck(
            lambda x, w, b, c: K.linear(x, w, b, epilogue=lambda y: E.tanh(y * E.column(c)), reduce=reduce),
            [t.requires_grad_() for t in (x, w, b, c)])
    torch.autograd.gradcheck(
        lambda x, w, b: K.linear(x, w, b, epilogue=lambda y: E.tanh(y), reduce="logsumexp",
                                 after=[None, AFTER[0][0]])[1],
        [t.detach().requires_grad_() for t in (x, w, b)])


def test_opcheck_and_compile(device):
    x, w, b = make(64, 32, 48, torch.float32, device)
    p = _program(vectors(64, 32, device, 1)[0])
    torch.library.opcheck(torch.ops.kernelwright.linear_program.default,
                          (x, w, b, p.code, p.consts, p.columns, p.rows, [], None, None, 1))
    compiled = torch.compile(lambda x: K.linear(x, w, b, activation="relu", reduce="sum"), fullgraph=True)
    torch.testing.assert_close(compiled(x), torch.relu(F.linear(x, w, b)).sum(-1), rtol=1e-4, atol=1e-4)


def test_bad_input_is_a_clear_error(device):
    x, w, b = make(8, 6, 4, torch.float32, device)
    with pytest.raises(ValueError, match="argument 'reduce' must be one of 'sum', 'mean', 'amax', 'amin'"):
        K.linear(x, w, b, reduce="max")
    with pytest.raises(ValueError, match="give 'activation' or 'epilogue', not both"):
        K.linear(x, w, b, activation="relu", epilogue=lambda y: y, reduce="sum")
    with pytest.raises(ValueError, match="argument 'activation' must be one of"):
        K.linear(x, w, b, activation="swish", reduce="sum")
    p = _program(vectors(8, 6, device, 1)[0])
    with pytest.raises(ValueError, match=r"argument 'reduce' must be 0 \(none\), 1 \(sum\), 2 \(max\), 3 \(min\) "
                       r"or 4 \(logsumexp\)"):
        _partials(x, w, b, p, 5)
    with pytest.raises(ValueError, match="'after' applies to reduced rows; give 'reduce' too"):
        K.linear(x, w, b, after=[None])
    with pytest.raises(ValueError, match="an 'after' expression reads the reduced rows and numbers, not vectors"):
        K.linear(x, w, b, reduce="sum", after=[lambda r: r * E.column(b)])
    assert K.linear(x, w, b, reduce="sum").shape == (8,)  # the next call still works


def test_kernel_keys_name_the_reduction():
    p = _program()
    k = _epilogue_kernels.key(p.code, "fp16_split3_stream_k", 2)
    assert k.endswith("|2") and _epilogue_kernels.parse_key(k) == (p.code, "fp16_split3_stream_k", 2)
    assert _epilogue_kernels.key(p.code, "fp16_split3_stream_k", 0) == _epilogue_kernels.key(p.code, "fp16_split3_stream_k")
    for bad in (k[:-1] + "0", k[:-1] + "5", k[:-1] + "x", k + "|1"):
        with pytest.raises(ValueError, match="not an epilogue kernel key"):
            _epilogue_kernels.parse_key(bad)
    assert _epilogue_kernels.describe(p.code, 3).startswith("row min of gelu(")
    shape = _epilogue_kernels.shape(_epilogue_kernels.key(p.code, "fp16_scaled_data_parallel", 3))
    assert shape[-1] == 3 and "kReduce = 3" in _epilogue_kernels.shape_source(shape)
    assert _epilogue_kernels.describe(p.code, 4).startswith("row logsumexp of gelu(")


@pytest.mark.cuda
@pytest.mark.parametrize("reduce", ["sum", "logsumexp"])
@pytest.mark.parametrize("variant", sorted(_epilogue_kernels.variants()))
def test_each_variant_reduces_in_its_kernel(variant, reduce):
    """The shape, precision and cross-product route that pick each variant: the rows are reduced
    in the variant's compiled kernel (its partials, and the kernel in the profiler)."""
    (rows, got), (x, w, b, c), linked = run_in_variant(
        variant, lambda m: make(m, 264, 64, torch.float32, "cuda") + vectors(m, 264, "cuda", 2)[:1],
        lambda x, w, b, c: (_partials(x, w, b, _program(c), CODES[reduce]),
                            K.linear(x, w, b, epilogue=_program(c), reduce=reduce)))
    assert rows.shape == (x.shape[0], 3) and linked
    want = REDUCE[reduce](expected(CHAIN[1], x, w, b, c, c), -1)
    assert rel_err(got, want) < (1e-5 if _epilogue_kernels.variants()[variant][0] else 1e-2)

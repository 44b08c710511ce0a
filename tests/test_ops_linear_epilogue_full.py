"""GEMM epilogues that read full-size operands (E.full: a residual, a gate; two at most) beside
the GEMM's result: staged through shared memory in the Hopper kernels where TMA can read the
operands in place, run after the GEMM where it cannot, the same result either way."""

import os
import types

import pytest
import torch
import torch.nn.functional as F

import kernelwright.ops as K
from kernelwright.ops import _epilogue_kernels
from kernelwright.ops import epilogue as E
from reference import poison, randn
from test_ops_linear import float32_modes, make, precision, rel_err
from test_ops_linear_epilogue import kernels_built_ahead, run_in_variant

# (name, chain of the GEMM's result y, full-size operands f and g and a column vector c, in the
# namespace ns: kernelwright.ops.epilogue, or PyTorch's ops on the tensors themselves)
CHAINS = [
    ("residual_gelu", lambda ns, y, f, g, c: ns.gelu(y + ns.full(f)) * ns.column(c)),
    ("gate", lambda ns, y, f, g, c: y * ns.sigmoid(ns.full(f))),
    ("residual_used_twice", lambda ns, y, f, g, c: (y - ns.full(f)) * (ns.full(f) + 0.5)),
    ("film", lambda ns, y, f, g, c: (y * ns.full(f) + ns.full(g)) * ns.column(c)),
    ("gru_interpolation", lambda ns, y, f, g, c: ns.full(g) + ns.sigmoid(y) * (ns.full(f) - ns.full(g))),
]
RESIDUAL, TWO = CHAINS[0][1], CHAINS[4][1]
T = types.SimpleNamespace(gelu=F.gelu, sigmoid=torch.sigmoid, full=lambda t: t, column=lambda t: t)


def _torch(fn, z, f, g, c):
    return fn(T, z, f, g, c)


def _epilogue(fn, f, g, c):
    return lambda y: fn(E, y, f, g, c)


# Layouts of the full-size operand: where TMA reads it in place (16-byte rows from a 16-byte
# aligned start, no padded output columns) and where the program runs after the GEMM instead.
LAYOUTS = {
    "contiguous": lambda m, n, dev: randn((m, n), torch.float32, dev),
    "row_stride_padded": lambda m, n, dev: randn((m, n + 12), torch.float32, dev)[:, :n],
    "transposed": lambda m, n, dev: randn((n, m), torch.float32, dev).t(),
    "column_step": lambda m, n, dev: randn((m, 2 * n), torch.float32, dev)[:, ::2],
    "unaligned_start": lambda m, n, dev: randn((m * n + 1,), torch.float32, dev)[1:].view(m, n),
    "float64": lambda m, n, dev: randn((m, n), torch.float64, dev),
}


@pytest.fixture(scope="module", autouse=True)
def full_kernels():
    """RESIDUAL's and TWO's programs in every variant, and their rows summed in two."""
    def keys():
        codes = [E.compile(_epilogue(fn, 0, 1, 0)).code for fn in (RESIDUAL, TWO)]
        return ([_epilogue_kernels.key(code, v) for code in codes for v in _epilogue_kernels.variants()]
                + [_epilogue_kernels.key(code, v, 1) for code in codes
                   for v in ("fp16_split3_stream_k", "fp16_hi_sourced_stream_k")])

    yield from kernels_built_ahead(keys)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("name,fn", CHAINS, ids=[c[0] for c in CHAINS])
def test_full_size_operands_match_float64(device, name, fn, layout):
    """Within 2x the error of the chain run by PyTorch in float32, at each precision and, on CUDA,
    with the split's cross products fused and apart; 256 columns (no padded output) and 65. The
    first operand in ``layout``, a second (where the chain reads one) contiguous."""
    for m, n, k in ((300, 256, 200), (129, 65, 72)):
        x, w, b = make(m, n, k, torch.float32, device)
        f, g = LAYOUTS[layout](m, n, device), randn((m, n), torch.float32, device)
        c = randn((n,), torch.float32, device)
        want = _torch(fn, F.linear(x.double(), w.double(), b.double()), f.double(), g.double(), c.double())
        for mode in float32_modes(device):
            with precision(*mode):
                eager = _torch(fn, F.linear(x, w, b), f.float(), g, c)
                limit = max(2.0 * rel_err(eager, want), 2e-6 if mode[0] == "highest" else 2e-2)
                for cross in ("fused", "apart") if device == "cuda" else ("auto",):
                    os.environ["KERNELWRIGHT_GEMM_CROSS"] = cross
                    try:
                        poison(device)
                        got = K.linear(x, w, b, epilogue=_epilogue(fn, f, g, c))
                    finally:
                        del os.environ["KERNELWRIGHT_GEMM_CROSS"]
                    assert got.shape == (m, n) and got.dtype == torch.float32
                    assert rel_err(got, want) <= limit, (mode, cross, m, n, rel_err(got, want), limit)


def test_batched_rows_reduced_and_kept_weight(device):
    """x of three dims with its full-size operand in the output's shape; the rows of the result
    reduced in the epilogue (the partials read the operand too); a kept weight."""
    x, w, b = make(96, 128, 80, torch.float32, device)
    f, g = randn((4, 24, 128), torch.float32, device), randn((4, 24, 128), torch.float32, device)
    c = randn((128,), torch.float32, device)
    z = F.linear(x.double(), w.double(), b.double()).view(4, 24, 128)
    for fn in (RESIDUAL, TWO):
        want = _torch(fn, z, f.double(), g.double(), c.double())
        got = K.linear(x.view(4, 24, 80), w, b, epilogue=_epilogue(fn, f, g, c))
        assert got.shape == (4, 24, 128) and rel_err(got, want) < 1e-5
        for reduce, torch_reduce in (("sum", lambda t: t.sum(-1)), ("logsumexp", lambda t: t.logsumexp(-1))):
            got = K.linear(x.view(4, 24, 80), w, b, epilogue=_epilogue(fn, f, g, c), reduce=reduce)
            assert got.shape == (4, 24) and rel_err(got, torch_reduce(want)) < 1e-5, reduce
        cache = K.WeightCache()
        for _ in range(2):
            assert rel_err(K.linear(x.view(4, 24, 80), w, b, cache=cache, epilogue=_epilogue(fn, f, g, c)), want) < 1e-5


@pytest.mark.cuda
@pytest.mark.parametrize("fn", [RESIDUAL, TWO], ids=["one", "two"])
@pytest.mark.parametrize("variant", sorted(_epilogue_kernels.variants()))
def test_each_variant_reads_the_operands_in_its_kernel(variant, fn):
    """The shape, precision and cross-product route that pick each variant: the program runs in
    the variant's compiled kernel (seen in the profiler), reading one operand or two, and matches
    float64."""
    got, (x, w, b, f, g, c), linked = run_in_variant(
        variant, lambda m: make(m, 136, 64, torch.float32, "cuda") + (randn((m, 136), torch.float32, "cuda"),
                                                                       randn((m, 136), torch.float32, "cuda"),
                                                                       randn((136,), torch.float32, "cuda")),
        lambda x, w, b, f, g, c: K.linear(x, w, b, epilogue=_epilogue(fn, f, g, c)))
    assert linked
    want = _torch(fn, F.linear(x.double(), w.double(), b.double()), f.double(), g.double(), c.double())
    assert rel_err(got, want) < (1e-5 if _epilogue_kernels.variants()[variant][0] else 1e-2)


@pytest.mark.parametrize("fn", [RESIDUAL, TWO], ids=["one", "two"])
def test_gradcheck(device, fn):
    x, w, b = make(6, 5, 4, torch.float64, device)
    f, g, c = randn((6, 5), torch.float64, device), randn((6, 5), torch.float64, device), randn((5,), torch.float64, device)
    leaves = [t.clone().requires_grad_() for t in (x, w, b, f, g, c)]
    torch.autograd.gradcheck(lambda x, w, b, f, g, c: K.linear(x, w, b, epilogue=_epilogue(fn, f, g, c)), leaves)


@pytest.mark.parametrize("fn", [RESIDUAL, TWO], ids=["one", "two"])
def test_opcheck(device, fn):
    x, w, b = make(64, 32, 48, torch.float32, device)
    f, g = randn((64, 32), torch.float32, device), randn((64, 32), torch.float32, device)
    p = E.compile(_epilogue(fn, f, g, randn((32,), torch.float32, device)))
    torch.library.opcheck(torch.ops.kernelwright.linear_program.default,
                          (x, w, b, p.code, p.consts, p.columns, p.rows, p.fulls, None, None))


def test_bad_full_operands_are_clear_errors(device):
    x, w, b = make(4, 8, 16, torch.float32, device)
    f = randn((4, 8), torch.float32, device)
    cases = [
        (lambda: K.linear(x, w, b, epilogue=lambda y: y + E.full(f[:, :7])), ValueError, r"fulls\[0\].*4 rows of 8"),
        (lambda: K.linear(x, w, b, epilogue=lambda y: y + E.full(f.long())), TypeError, r"fulls\[0\]"),
        (lambda: K.linear(x, w, b, epilogue=lambda y: y + E.full(f) * E.full(f + 1) - E.full(f - 1)), E.EpilogueError,
         "at most two full-size operands, this one reads 3"),
        (lambda: torch.ops.kernelwright.linear_program(x, w, b, [23, 0, 0, 8, 0], [], [], [], [f, f, f], None, None),
         ValueError, "'fulls' may hold two tensors"),
    ]
    if device == "cuda":
        cases.append((lambda: K.linear(x, w, b, epilogue=lambda y: y + E.full(f.cpu())), ValueError, "device"))
    for call, exc, word in cases:
        with pytest.raises(exc, match=word):
            call()
    got = K.linear(x, w, b, epilogue=lambda y: y + E.full(f))  # the next call works
    torch.testing.assert_close(got, F.linear(x, w, b) + f, rtol=1e-5, atol=1e-5)


def test_a_full_operand_is_part_of_the_kernels_shape():
    """A program reading the operand names it f0 in its code, and its shape's GEMM holds the
    operand's node: a shape of its own, beside the program's vectors."""
    p = E.compile(lambda y: E.relu(y + E.full(0)) * E.column(0))
    assert _epilogue_kernels.describe(p.code) == "mul(relu(add(y, f0)), c0)"
    k = _epilogue_kernels.key(p.code, "fp16_split3_stream_k")
    assert _epilogue_kernels.shape(k) == ("fp16_split3_stream_k", 1, 0, 1, 0)
    unit = _epilogue_kernels.shape_source(_epilogue_kernels.shape(k))
    assert "Frag const& c0, Frag const& f0," in unit and "kColumns = 1, kRows = 0, kFulls = 1" in unit
    assert "float f0, float f1, const float* k" in _epilogue_kernels.program_source(p.code)
    plain = E.compile(lambda y: E.relu(y) * E.column(0))
    assert _epilogue_kernels.shape(_epilogue_kernels.key(plain.code, "fp16_split3_stream_k"))[3] == 0
    bound = p.bind(columns=[torch.ones(3)], fulls=[torch.zeros(2, 3)])
    assert bound.fulls[0].shape == (2, 3) and bound.columns[0].shape == (3,)
    with pytest.raises(E.EpilogueError, match="full"):
        p.bind(columns=[torch.ones(3)])


def test_two_full_operands_are_part_of_the_kernels_shape():
    """f0 and f1 name the two operands in order of first use; the shape's GEMM holds a node each."""
    p = E.compile(lambda y: E.full(1) + E.sigmoid(y) * (E.full(0) - E.full(1)))
    assert p.fulls == [1, 0]
    assert _epilogue_kernels.describe(p.code) == "add(f0, mul(sigmoid(y), sub(f1, f0)))"
    sh = _epilogue_kernels.shape(_epilogue_kernels.key(p.code, "fp16_hi_sourced_data_parallel"))
    assert sh == ("fp16_hi_sourced_data_parallel", 0, 0, 2, 0)
    assert "two full-size operands" in _epilogue_kernels.shape_name(sh)
    unit = _epilogue_kernels.shape_source(sh)
    assert "Frag const& f0, Frag const& f1," in unit and "f0[i], f1[i], args.consts.v" in unit
    assert "float f0, float f1, const float* k" in _epilogue_kernels.program_source(p.code)
    f, g = torch.randn(2, 3), torch.randn(2, 3)
    bound = p.bind(fulls=[f, g])
    assert bound.fulls[0] is g and bound.fulls[1] is f
    torch.testing.assert_close(bound.apply(torch.ones(2, 3)), g + torch.sigmoid(torch.ones(2, 3)) * (f - g))

"""GEMM epilogues that read a full-size operand (E.full: a residual, a gate) beside the GEMM's
result: staged through shared memory in the Hopper kernels where TMA can read the operand in
place, run after the GEMM where it cannot, the same result either way."""

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

# (name, chain of the GEMM's result y, a full-size operand f and a column vector c, in the
# namespace ns: kernelwright.ops.epilogue, or PyTorch's ops on the tensors themselves)
CHAINS = [
    ("residual_gelu", lambda ns, y, f, c: ns.gelu(y + ns.full(f)) * ns.column(c)),
    ("gate", lambda ns, y, f, c: y * ns.sigmoid(ns.full(f))),
    ("residual_used_twice", lambda ns, y, f, c: (y - ns.full(f)) * (ns.full(f) + 0.5)),
]
RESIDUAL = CHAINS[0][1]
T = types.SimpleNamespace(gelu=F.gelu, sigmoid=torch.sigmoid, full=lambda t: t, column=lambda t: t)


def _torch(fn, z, f, c):
    return fn(T, z, f, c)


def _epilogue(fn, f, c):
    return lambda y: fn(E, y, f, c)


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
    """RESIDUAL's program in every variant, and its rows summed in two."""
    def keys():
        code = E.compile(_epilogue(RESIDUAL, 0, 0)).code
        return ([_epilogue_kernels.key(code, v) for v in _epilogue_kernels.variants()]
                + [_epilogue_kernels.key(code, v, 1) for v in ("fp16_split3_stream_k", "fp16_hi_sourced_stream_k")])

    yield from kernels_built_ahead(keys)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("name,fn", CHAINS, ids=[c[0] for c in CHAINS])
def test_full_size_operands_match_float64(device, name, fn, layout):
    """Within 2x the error of the chain run by PyTorch in float32, at each precision and, on CUDA,
    with the split's cross products fused and apart; 256 columns (no padded output) and 65."""
    for m, n, k in ((300, 256, 200), (129, 65, 72)):
        x, w, b = make(m, n, k, torch.float32, device)
        f = LAYOUTS[layout](m, n, device)
        c = randn((n,), torch.float32, device)
        want = _torch(fn, F.linear(x.double(), w.double(), b.double()), f.double(), c.double())
        for mode in float32_modes(device):
            with precision(*mode):
                eager = _torch(fn, F.linear(x, w, b), f.float(), c)
                limit = max(2.0 * rel_err(eager, want), 2e-6 if mode[0] == "highest" else 2e-2)
                for cross in ("fused", "apart") if device == "cuda" else ("auto",):
                    os.environ["KERNELWRIGHT_GEMM_CROSS"] = cross
                    try:
                        poison(device)
                        got = K.linear(x, w, b, epilogue=_epilogue(fn, f, c))
                    finally:
                        del os.environ["KERNELWRIGHT_GEMM_CROSS"]
                    assert got.shape == (m, n) and got.dtype == torch.float32
                    assert rel_err(got, want) <= limit, (mode, cross, m, n, rel_err(got, want), limit)


def test_batched_rows_reduced_and_kept_weight(device):
    """x of three dims with its full-size operand in the output's shape; the rows of the result
    reduced in the epilogue (the partials read the operand too); a kept weight."""
    x, w, b = make(96, 128, 80, torch.float32, device)
    f, c = randn((4, 24, 128), torch.float32, device), randn((128,), torch.float32, device)
    z = F.linear(x.double(), w.double(), b.double()).view(4, 24, 128)
    want = _torch(RESIDUAL, z, f.double(), c.double())
    got = K.linear(x.view(4, 24, 80), w, b, epilogue=_epilogue(RESIDUAL, f, c))
    assert got.shape == (4, 24, 128) and rel_err(got, want) < 1e-5
    for reduce, torch_reduce in (("sum", lambda t: t.sum(-1)), ("logsumexp", lambda t: t.logsumexp(-1))):
        got = K.linear(x.view(4, 24, 80), w, b, epilogue=_epilogue(RESIDUAL, f, c), reduce=reduce)
        assert got.shape == (4, 24) and rel_err(got, torch_reduce(want)) < 1e-5, reduce
    cache = K.WeightCache()
    for _ in range(2):
        assert rel_err(K.linear(x.view(4, 24, 80), w, b, cache=cache, epilogue=_epilogue(RESIDUAL, f, c)), want) < 1e-5


@pytest.mark.cuda
@pytest.mark.parametrize("variant", sorted(_epilogue_kernels.variants()))
def test_each_variant_reads_the_operand_in_its_kernel(variant):
    """The shape, precision and cross-product route that pick each variant: the program runs in
    the variant's compiled kernel (seen in the profiler), reading the operand, and matches float64."""
    got, (x, w, b, f, c), linked = run_in_variant(
        variant, lambda m: make(m, 136, 64, torch.float32, "cuda") + (randn((m, 136), torch.float32, "cuda"),
                                                                       randn((136,), torch.float32, "cuda")),
        lambda x, w, b, f, c: K.linear(x, w, b, epilogue=_epilogue(RESIDUAL, f, c)))
    assert linked
    want = _torch(RESIDUAL, F.linear(x.double(), w.double(), b.double()), f.double(), c.double())
    assert rel_err(got, want) < (1e-5 if _epilogue_kernels.variants()[variant][0] else 1e-2)


def test_gradcheck(device):
    x, w, b = make(6, 5, 4, torch.float64, device)
    f, c = randn((6, 5), torch.float64, device), randn((5,), torch.float64, device)
    leaves = [t.clone().requires_grad_() for t in (x, w, b, f, c)]
    torch.autograd.gradcheck(lambda x, w, b, f, c: K.linear(x, w, b, epilogue=_epilogue(RESIDUAL, f, c)), leaves)


def test_opcheck(device):
    x, w, b = make(64, 32, 48, torch.float32, device)
    p = E.compile(_epilogue(RESIDUAL, randn((64, 32), torch.float32, device), randn((32,), torch.float32, device)))
    torch.library.opcheck(torch.ops.kernelwright.linear_program.default,
                          (x, w, b, p.code, p.consts, p.columns, p.rows, p.fulls, None, None))


def test_bad_full_operands_are_clear_errors(device):
    x, w, b = make(4, 8, 16, torch.float32, device)
    f = randn((4, 8), torch.float32, device)
    cases = [
        (lambda: K.linear(x, w, b, epilogue=lambda y: y + E.full(f[:, :7])), ValueError, r"fulls\[0\].*4 rows of 8"),
        (lambda: K.linear(x, w, b, epilogue=lambda y: y + E.full(f.long())), TypeError, r"fulls\[0\]"),
        (lambda: K.linear(x, w, b, epilogue=lambda y: y + E.full(f) * E.full(f + 1)), E.EpilogueError, "one full-size"),
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
    assert "float f0, const float* k" in _epilogue_kernels.program_source(p.code)
    plain = E.compile(lambda y: E.relu(y) * E.column(0))
    assert _epilogue_kernels.shape(_epilogue_kernels.key(plain.code, "fp16_split3_stream_k"))[3] == 0
    bound = p.bind(columns=[torch.ones(3)], fulls=[torch.zeros(2, 3)])
    assert bound.fulls[0].shape == (2, 3) and bound.columns[0].shape == (3,)
    with pytest.raises(E.EpilogueError, match="full"):
        p.bind(columns=[torch.ones(3)])

"""linear with a programmed epilogue: expressions compiled to the epilogue's register program,
run in the GEMM on CUDA (each program compiled into its own Hopper kernel) and by ATen ops
elsewhere, against the same chain written with PyTorch's own functions in float64."""

import os
import re
import sys
import threading
import types

import pytest
import torch
import torch.nn.functional as F

import kernelwright.ops as K
from kernelwright._build import sources
from kernelwright.kernel import nvrtc
from kernelwright.ops import _epilogue_build, _epilogue_kernels
from kernelwright.ops import epilogue as E
from reference import poison, randn
from test_ops_linear import float32_modes, make, precision, rel_err

# The same names as in kernelwright.ops.epilogue, as PyTorch computes them: each case below is
# written once and run through both.
T = types.SimpleNamespace(
    column=lambda t: t, row=lambda t: t[:, None], relu=torch.relu, sigmoid=torch.sigmoid, tanh=torch.tanh,
    gelu=F.gelu, exp=torch.exp, expm1=torch.expm1, log=torch.log, log1p=torch.log1p, sqrt=torch.sqrt,
    rsqrt=torch.rsqrt, reciprocal=torch.reciprocal, sin=torch.sin, cos=torch.cos, erf=torch.erf, abs=torch.abs,
    neg=torch.neg, floor=torch.floor, ceil=torch.ceil, sign=torch.sign,
    maximum=lambda a, b: torch.maximum(a, torch.as_tensor(b, dtype=a.dtype, device=a.device)),
    minimum=lambda a, b: torch.minimum(a, torch.as_tensor(b, dtype=a.dtype, device=a.device)),
    clamp=torch.clamp, where=lambda c, a, b: torch.where(c != 0, a, b),
    softplus=F.softplus, silu=F.silu, mish=F.mish, leaky_relu=F.leaky_relu, hardtanh=F.hardtanh,
    hardsigmoid=F.hardsigmoid, hardswish=F.hardswish, elu=F.elu, gt=torch.gt, lt=torch.lt, ge=torch.ge,
    le=torch.le, eq=torch.eq, ne=torch.ne, pow=torch.pow)

# (name, chain of y, a column vector c, a row vector r, in the namespace ns)
SMOOTH = [
    ("scale_bias_gelu", lambda ns, y, c, r: ns.gelu(y * 0.5 + ns.column(c))),
    ("gelu_tanh", lambda ns, y, c, r: ns.gelu(y, approximate="tanh")),
    ("residual_clamp", lambda ns, y, c, r: ns.clamp(y * 2.0 + y, -1.5, 2.5)),
    ("mish_mish", lambda ns, y, c, r: ns.mish(ns.mish(y))),
    ("swish_divide_tanh", lambda ns, y, c, r: ns.tanh(ns.clamp(ns.silu(y) / 2.0, -1.0, 1.0))),
    ("row_and_column", lambda ns, y, c, r: ns.sigmoid(y * ns.row(r)) - ns.column(c) * ns.row(r)),
    ("hardswish_elu", lambda ns, y, c, r: ns.elu(ns.hardswish(y), 0.7) + ns.hardsigmoid(y)),
    ("softplus_beta", lambda ns, y, c, r: ns.softplus(y, 2.0, 5.0) + ns.leaky_relu(y, 0.2)),
    ("transcendental", lambda ns, y, c, r: ns.exp(-ns.abs(y)) + ns.log1p(y * y) + ns.sin(y) * ns.cos(y)
     + ns.erf(y) + ns.sqrt(ns.abs(y) + 1.0) - ns.rsqrt(y * y + 1.0) + ns.expm1(ns.neg(ns.abs(y)))),
    ("min_max_pow", lambda ns, y, c, r: ns.maximum(y, ns.column(c)) + ns.minimum(y, 0.5) + ns.pow(ns.abs(y), 1.5)
     + ns.reciprocal(y * y + 2.0) + ns.log(ns.abs(y) + 0.5)),
    ("hardtanh_relu", lambda ns, y, c, r: ns.hardtanh(ns.relu(y) - 0.5, -0.25, 0.75)),
]
# Steps and discontinuities: run on GEMMs whose result is exact (small integers), so that a value
# on a step's edge is the same on every path.
STEPS = [
    ("floor_ceil_sign", lambda ns, y, c, r: ns.floor(y / 4.0) + ns.ceil(y / 3.0) * ns.sign(y)),
    ("compare_where", lambda ns, y, c, r: ns.where(ns.gt(y, ns.column(c)), y, ns.neg(y))
     + ns.where(ns.le(y, 0.0), 1.0, 2.0) * ns.where(ns.eq(y, 3.0), 5.0, 1.0)),
    ("compare_values", lambda ns, y, c, r: ns.lt(y, 0.0) * 1.0 + ns.ge(y, 2.0) * 2.0 + ns.ne(y, 1.0) * 4.0),
]


# The program test_each_variant_runs_the_program_in_its_kernel runs in every variant.
VARIANT_PROGRAM = E.compile(lambda y: SMOOTH[5][1](E, y, 0, 0))

# The kernel these tests' small shapes pick at 'highest' (stream-K: fewer tiles than SMs) with
# the cross products fused; the program is the same code in every variant, and
# test_each_variant_runs_the_program_in_its_kernel runs one program in each.
SMALL_VARIANTS = ["fp16_split3_stream_k"]


def _can_build():
    return _epilogue_build.missing() is None


def kernels_built_ahead(keys):
    """A module fixture's body: on a GPU, the kernels of ``keys()`` compiled in parallel before
    the tests; no call compiles on demand meanwhile (KERNELWRIGHT_EPILOGUE_JIT=0), so any other
    program runs after its GEMM, the path a call takes before its kernel is built."""
    old = os.environ.get(_epilogue_kernels.ENV_JIT)
    os.environ[_epilogue_kernels.ENV_JIT] = "0"
    if torch.cuda.is_available() and _can_build():
        from kernelwright.ops._common import ext

        _epilogue_kernels.load(keys(), ext)  # one parallel batch
    yield
    if old is None:
        del os.environ[_epilogue_kernels.ENV_JIT]
    else:
        os.environ[_epilogue_kernels.ENV_JIT] = old


@pytest.fixture(scope="module", autouse=True)
def epilogue_kernels():
    """SMOOTH's and STEPS's programs in the variant small shapes pick, VARIANT_PROGRAM's in all."""
    def keys():
        codes = [E.compile(lambda y, fn=fn: fn(E, y, 0, 0)).code for _, fn in SMOOTH + STEPS]
        return ([_epilogue_kernels.key(c, v) for c in codes for v in SMALL_VARIANTS]
                + [_epilogue_kernels.key(VARIANT_PROGRAM.code, v) for v in _epilogue_kernels.variants()])

    yield from kernels_built_ahead(keys)


def run_in_variant(variant, make_inputs, call):
    """The GEMM shape, precision and cross-product route that pick ``variant``: (``call`` on
    ``make_inputs(m)``'s result, the inputs, whether the linked kernel ran, seen in the
    profiler; the extension's own kernels have other names)."""
    promoted, sourced, stream_k = _epilogue_kernels.variants()[variant]
    if not _can_build():
        pytest.skip("no nvcc or CUTLASS headers to compile epilogue kernels with")
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    inputs = make_inputs(128 if stream_k else 128 * sms)  # one tile, or one whole wave of them
    os.environ["KERNELWRIGHT_GEMM_CROSS"] = "apart" if sourced else "fused"
    try:
        with precision("highest" if promoted else "high"):
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                got = call(*inputs)
                torch.cuda.synchronize()
    finally:
        del os.environ["KERNELWRIGHT_GEMM_CROSS"]
    return got, inputs, "kw_epilogue_gemm" in [e.name for e in prof.events()]


def expected(fn, x, w, b, c, r):
    z = F.linear(x.double(), w.double(), None if b is None else b.double())
    return fn(T, z, c.double(), r.double()).double()


def vectors(m, n, device, seed):
    g = torch.Generator().manual_seed(seed)
    return randn((n,), torch.float32, device, generator=g), randn((m,), torch.float32, device, generator=g)


@pytest.mark.parametrize("name,fn", SMOOTH, ids=[c[0] for c in SMOOTH])
@pytest.mark.parametrize("mnk", [(7, 5, 3), (300, 517, 1000), (129, 256, 72), (640, 384, 4096)], ids=str)
def test_smooth_chains_match_float64(device, name, fn, mnk):
    """Within 2x the error of the chain run by PyTorch in float32, at each precision and, on CUDA,
    with the split's cross products fused and apart and with a kept weight."""
    x, w, b = make(*mnk, torch.float32, device)
    c, r = vectors(mnk[0], mnk[1], device, len(name))
    want = expected(fn, x, w, b, c, r)
    epilogue = lambda y: fn(E, y, c, r)  # noqa: E731
    for mode in float32_modes(device):
        with precision(*mode):
            eager = fn(T, F.linear(x, w, b), c, r)
            limit = max(2.0 * rel_err(eager, want), 2e-6 if mode[0] == "highest" else 2e-2)
            for cross in ("fused", "apart") if device == "cuda" else ("auto",):
                os.environ["KERNELWRIGHT_GEMM_CROSS"] = cross
                try:
                    poison(device)
                    got = K.linear(x, w, b, epilogue=epilogue)
                    assert got.shape == want.shape and got.dtype == torch.float32
                    assert rel_err(got, want) <= limit, (mode, cross, rel_err(got, want), limit)
                    cache = K.WeightCache()
                    for _ in range(2):
                        assert rel_err(K.linear(x, w, b, cache=cache, epilogue=epilogue), want) <= limit
                finally:
                    del os.environ["KERNELWRIGHT_GEMM_CROSS"]


@pytest.mark.parametrize("name,fn", STEPS, ids=[c[0] for c in STEPS])
def test_steps_on_exact_products(device, name, fn):
    g = torch.Generator().manual_seed(3)
    x = torch.randint(-3, 4, (260, 64), generator=g).float().to(device)
    w = torch.randint(-3, 4, (132, 64), generator=g).float().to(device)
    b = torch.randint(-3, 4, (132,), generator=g).float().to(device)
    c = torch.randint(-9, 10, (132,), generator=g).float().to(device)
    r = torch.ones(260, device=device)
    want = expected(fn, x, w, b, c, r)
    assert (want != want.flatten()[0]).any()  # the steps are taken both ways
    for mode in float32_modes(device):
        with precision(*mode):
            torch.testing.assert_close(K.linear(x, w, b, epilogue=lambda y: fn(E, y, c, r)).double(), want)


def test_nan_and_infinity_propagate_as_in_torch(device):
    """A NaN row of x and infinite columns of the bias: every op keeps NaN where torch does (relu,
    maximum, minimum, clamps), sign gives torch's 0 for NaN, and sigmoid and tanh saturate at
    infinities. The infinities come from the bias: an infinite x meets the split's small halves
    (docs/linear.md, non-finite inputs)."""
    x, w, b = make(6, 40, 16, torch.float32, device)
    x[1] = float("nan")
    b[3], b[7] = float("inf"), -float("inf")
    chain = lambda ns, y: (ns.relu(y) + ns.maximum(y, 0.5) + ns.minimum(y, -0.5) + ns.clamp(y, -1.0, 1.0)  # noqa: E731
                           + ns.sign(y) + ns.sigmoid(-y) + ns.tanh(y))
    want = chain(T, F.linear(x.double(), w.double(), b.double()))
    with precision("highest"):
        got = K.linear(x, w, b, epilogue=lambda y: chain(E, y))
    torch.testing.assert_close(got.double(), want, equal_nan=True, rtol=1e-5, atol=1e-5)
    assert got[1].isnan().all() and got[0, 3] == float("inf") and got[0, 7] == -float("inf")
    b = b.nan_to_num(posinf=0.0, neginf=0.0)
    signs, z = K.linear(x, w, b, epilogue=lambda y: E.sign(y)), F.linear(x, w, b)
    clear = z.abs() > 1e-3  # away from 0, where the two GEMMs' roundings cannot disagree on the sign
    assert torch.equal(signs[clear], torch.sign(z)[clear]) and (signs[1] == 0).all()


def test_batched_non_contiguous_and_empty(device):
    x, w, b = make(96, 128, 256, torch.float32, device)
    c, r = vectors(96, 128, device, 1)
    fn = SMOOTH[5][1]
    x3 = x.view(4, 24, 256)
    got = K.linear(x3, w, b, epilogue=lambda y: fn(E, y, c, r))
    assert got.shape == (4, 24, 128)
    assert rel_err(got.view(96, 128), expected(fn, x, w, b, c, r)) < 1e-5
    wide = randn((96, 512), torch.float32, device)[:, ::2]
    assert rel_err(K.linear(wide, w, b, epilogue=lambda y: fn(E, y, c[:], r)), expected(fn, wide, w, b, c, r)) < 1e-5
    strided_c = randn((256,), torch.float32, device)[::2]
    got = K.linear(x, w, None, epilogue=lambda y: fn(E, y, strided_c, r))
    assert rel_err(got, expected(fn, x, w, None, strided_c, r)) < 1e-5
    x0, w0, b0 = make(0, 16, 32, torch.float32, device)
    assert K.linear(x0, w0, b0, epilogue=lambda y: E.relu(y) + E.row(torch.ones(0, device=device))).shape == (0, 16)
    xk, wk, bk = make(5, 16, 0, torch.float32, device)
    torch.testing.assert_close(K.linear(xk, wk, bk, epilogue=lambda y: E.sigmoid(y) * 2.0),
                               (torch.sigmoid(bk) * 2).expand(5, 16))


def test_constant_and_identity_programs(device):
    x, w, b = make(9, 12, 8, torch.float32, device)
    torch.testing.assert_close(K.linear(x, w, b, epilogue=lambda y: y), F.linear(x, w, b), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(K.linear(x, w, b, epilogue=E.result() * 0.0 + 1.5), torch.full((9, 12), 1.5,
                                                                                               device=device))


@pytest.mark.parametrize("name,fn", [SMOOTH[0], SMOOTH[5], SMOOTH[7]], ids=["gelu", "row_and_column", "softplus"])
def test_gradcheck(device, name, fn):
    x, w, b = make(6, 5, 4, torch.float64, device)
    c, r = (t.double() for t in vectors(6, 5, device, 7))
    leaves = [t.clone().requires_grad_() for t in (x, w, b, c, r)]
    torch.autograd.gradcheck(lambda x, w, b, c, r: K.linear(x, w, b, epilogue=lambda y: fn(E, y, c, r)), leaves)


def test_opcheck_and_compile(device):
    x, w, b = make(64, 32, 48, torch.float32, device)
    c, r = vectors(64, 32, device, 5)
    p = E.compile(SMOOTH[5][1](E, E.result(), c, r))
    torch.library.opcheck(torch.ops.kernelwright.linear_program.default,
                          (x, w, b, p.code, p.consts, p.columns, p.rows, p.fulls, None, None))
    compiled = torch.compile(lambda x: K.linear(x, w, b, epilogue=lambda y: E.gelu(y * E.column(c))), fullgraph=True)
    torch.testing.assert_close(compiled(x), F.gelu(F.linear(x, w, b) * c), rtol=1e-4, atol=1e-5)


def test_the_fast_path_serves_calls_without_gradients_and_declines_the_rest(device):
    """The extension's C++ entry takes plain calls (the same result as the op), and declines a
    call that records a gradient, whose autograd the op path holds."""
    from kernelwright.ops._common import ext

    x, w, b = make(33, 20, 16, torch.float32, device)
    c, r = vectors(33, 20, device, 4)
    p = E.compile(SMOOTH[5][1](E, E.result(), c, r))
    args = (x, w, b, p.code, p.consts, p.columns, p.rows, p.fulls, None, None)
    fast = ext.linear_program(*args)
    assert isinstance(fast, torch.Tensor)
    assert torch.equal(fast, torch.ops.kernelwright.linear_program.default(*args))
    assert ext.linear_program(x, w.requires_grad_(), *args[2:]) is NotImplemented
    assert ext.linear_program(*args[:6], [r.requires_grad_()], [], None, None) is NotImplemented


@pytest.mark.cuda
@pytest.mark.parametrize("variant", sorted(_epilogue_kernels.variants()))
def test_each_variant_runs_the_program_in_its_kernel(variant):
    """The shape, precision and cross-product route that pick each variant: the program runs in
    the variant's compiled kernel (seen in the profiler), and matches float64."""
    fn = SMOOTH[5][1]  # VARIANT_PROGRAM, whose kernels the module's fixture built
    got, (x, w, b, c, r), linked = run_in_variant(
        variant, lambda m: make(m, 136, 64, torch.float32, "cuda") + vectors(m, 136, "cuda", 9),
        lambda x, w, b, c, r: K.linear(x, w, b, epilogue=lambda y: fn(E, y, c, r)))
    assert linked
    assert rel_err(got, expected(fn, x, w, b, c, r)) < (1e-5 if _epilogue_kernels.variants()[variant][0] else 1e-2)


@pytest.mark.skipif(not nvrtc.available(), reason="needs cuda-bindings")
def test_a_missing_nvjitlink_library_is_named_before_any_build(monkeypatch):
    """cuda-bindings opens libnvJitLink at its first call: without the library, missing() says
    so (and what to install), and a link raises BuildError with that reason."""
    def absent(*args):
        raise OSError("libnvJitLink.so.13: cannot open shared object file\nsearched: ...")

    monkeypatch.setattr(nvrtc._bindings("nvjitlink"), "create", absent)
    _epilogue_build._nvjitlink_missing.cache_clear()
    try:
        if _epilogue_build.nvcc() and sources.cutlass_include():
            why = _epilogue_build.missing()
            assert "nvJitLink" in why and "pip install nvidia-nvjitlink" in why and "\n" not in why
        with pytest.raises(_epilogue_build.BuildError, match="could not be linked: no usable nvJitLink"):
            _epilogue_build._link_lto([], os.devnull)
    finally:
        _epilogue_build._nvjitlink_missing.cache_clear()


@pytest.mark.skipif(not _can_build(), reason="no nvcc, CUTLASS headers or nvJitLink")
@pytest.mark.parametrize("reduce", [0, 2, 4], ids=["written", "row_max", "row_logsumexp"])
def test_a_generated_kernel_builds(tmp_path, monkeypatch, reduce):
    """A program that uses every kind of operand (registers, both vectors of each kind,
    constants), its result written or its rows reduced, builds into a cubin holding the linked
    kernel and the library of its shape that launches it; a second program of that shape is
    linked into the same shape's kernel, nothing else compiled again. No GPU needed."""
    monkeypatch.setenv("KERNELWRIGHT_CACHE_DIR", str(tmp_path))
    p = E.compile(lambda y: E.softplus(y * E.column(0) - E.row(0), 2.0, 5.0) + E.column(1) * E.row(1)
                  + E.where(E.gt(y, 0.5), E.tanh(y), E.erf(y)))
    k = _epilogue_kernels.key(p.code, "fp16_hi_sourced_stream_k", reduce)
    library, cubin = _epilogue_kernels.build(k)
    assert "kw_epilogue_link" in open(library, "rb").read().decode("latin-1")
    image = open(cubin, "rb").read()
    assert image[:4] == b"\x7fELF" and b"kw_epilogue_gemm" in image
    assert "epilogue_apply" not in open(library.replace("launch.so", "unit.cu")).read()  # no program there
    other = E.compile(lambda y: E.relu(y * E.column(1) + E.row(1)) - E.column(0) * E.row(0))
    k2 = _epilogue_kernels.key(other.code, "fp16_hi_sourced_stream_k", reduce)
    assert _epilogue_kernels.shape(k2) == _epilogue_kernels.shape(k)
    before = os.path.getmtime(library)
    library2, cubin2 = _epilogue_kernels.build(k2)
    assert library2 == library and os.path.getmtime(library) == before and cubin2 != cubin


@pytest.mark.skipif(not nvrtc.available(), reason="needs cuda-bindings and an NVRTC library")
def test_every_op_compiles_with_nvrtc():
    """The code written for programs that use every op, every register, vectors of both kinds,
    both full-size operands and constants, with the op table (epilogue_ops.cuh), compiles for the
    GPU without one."""
    y = E.result()
    unary = ["neg", "abs", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tanh",
             "sigmoid", "erf", "relu", "floor", "ceil", "sign"]
    binary = ["maximum", "minimum", "lt", "le", "gt", "ge", "eq", "ne", "clamp_min", "clamp_max", "pow"]
    programs = [sum((getattr(E, name)(y * float(i + 1)) for i, name in enumerate(unary[j:j + 6])), E.result())
                for j in range(0, len(unary), 6)]
    programs += [sum((getattr(E, name)(y, E.column(0) - 0.5 * i) for i, name in enumerate(binary[j:j + 6])),
                     E.result()) for j in range(0, len(binary), 6)]
    programs += [E.where(E.gt(y, E.row(0)), E.gelu(y), E.gelu(y, approximate="tanh")) / E.softplus(y, 2.0, 5.0)
                 - E.column(1) * E.row(1) + E.full(0) * E.full(1)]
    used = set()
    for i, expr in enumerate(programs):
        code = E.compile(expr).code
        used.update(E.OPS[op] for op in code[::5])
        text = ('#include "kw/cuda/epilogue_ops.cuh"\n' + _epilogue_kernels.body(code) +
                'extern "C" __global__ void run(float* y, const float* k) {\n'
                '  const int i = threadIdx.x;\n'
                '  y[i] = Body::apply(y[i], y[i + 1], y[i + 2], y[i + 3], y[i + 4], y[i + 5], y[i + 6], k);\n}\n')
        ptx, meta = nvrtc._compile(text, "program%d.cu" % i, "run", [
            "--gpu-architecture=compute_90", "-std=c++17", "-I" + os.path.join(sources.find_csrc(), "include")], "run")
        assert meta["format"] == "ptx" and b".entry run" in ptx
    assert used >= set(E.OPS) - {"copy"}


class _FakeExtension:
    """The extension's two registry functions: keys asked for, and a loader that refuses."""

    def __init__(self, wanted):
        self.wanted = list(wanted)

    def epilogue_kernels_wanted(self):
        wanted, self.wanted = self.wanted, []
        return wanted

    def load_epilogue_kernel(self, library, image, key):
        raise RuntimeError("kernelwright: cannot load the epilogue kernel %s: invalid image" % image)


def test_a_kernel_that_cannot_be_built_or_loaded_leaves_its_calls_running_apart(tmp_path, monkeypatch, capsys):
    """A failed compile or load is said once (with the build log's path) and not tried again; with
    KERNELWRIGHT_EPILOGUE_JIT=0 nothing is compiled. None of it raises: the calls run apart."""
    monkeypatch.setenv("KERNELWRIGHT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(_epilogue_kernels.ENV_JIT, "1")
    monkeypatch.setattr(_epilogue_kernels, "_failed", set())
    monkeypatch.setattr(_epilogue_build, "missing", lambda: None)
    # A compiler that fails: the build log keeps what it printed.
    monkeypatch.setattr(_epilogue_build, "commands", lambda unit, out: dict.fromkeys(
        ("device", "library", "program"), [sys.executable, "-c", "import sys; print('syntax error'); sys.exit(1)"]))
    bad = _epilogue_kernels.key(E.compile(lambda y: E.relu(y)).code, "fp16_split3_stream_k")
    _epilogue_kernels.serve_wanted(_FakeExtension([bad]))
    err = capsys.readouterr().err
    assert "did not compile" in err and ".log" in err
    log = re.search(r"log: (\S+\.log)", err).group(1)
    assert "syntax error" in open(log).read()
    same_shape = _epilogue_kernels.key(E.compile(lambda y: E.exp(y)).code, "fp16_split3_stream_k")
    _epilogue_kernels.serve_wanted(_FakeExtension([bad, same_shape]))  # neither tried again
    assert capsys.readouterr().err == "" and same_shape in _epilogue_kernels._failed
    # A kernel that builds but does not load.
    monkeypatch.setattr(_epilogue_build, "commands", lambda unit, out: dict.fromkeys(
        ("device", "library", "program"), [sys.executable, "-c", "open(%r, 'w').write('not a kernel')" % out]))
    monkeypatch.setattr(_epilogue_build, "_link_lto", lambda fatbins, log: b"not a cubin")
    unloadable = _epilogue_kernels.key(E.compile(lambda y: E.sigmoid(y * E.column(0))).code, "fp16_split3_stream_k")
    assert _epilogue_kernels.load([unloadable], _FakeExtension([])) == []
    assert "cannot load" in capsys.readouterr().err and unloadable in _epilogue_kernels._failed
    monkeypatch.setenv(_epilogue_kernels.ENV_JIT, "0")
    untouched = _epilogue_kernels.key(E.compile(lambda y: E.tanh(y)).code, "fp16_split3_stream_k")
    ext = _FakeExtension([untouched])
    before = sorted(os.listdir(os.path.join(tmp_path, "epilogues")))
    _epilogue_kernels.serve_wanted(ext)
    assert ext.wanted == [untouched] and capsys.readouterr().err == ""  # left asked for, not built
    assert sorted(os.listdir(os.path.join(tmp_path, "epilogues"))) == before


def test_kernels_are_built_ahead_in_a_thread(monkeypatch):
    """build_ahead runs the calls with compiling off in their thread (they ask for their kernels
    and run apart; another thread's calls still build theirs) and builds what they asked for in
    a thread; with compiling off it builds nothing."""
    k, other = (_epilogue_kernels.key(E.compile(f).code, "fp16_split3_stream_k") for f in (E.relu, E.tanh))
    built = []
    monkeypatch.setattr(_epilogue_kernels, "load", lambda keys, ext: built.extend(keys) or list(keys))
    monkeypatch.delenv(_epilogue_kernels.ENV_JIT, raising=False)
    ext, elsewhere = _FakeExtension([k]), _FakeExtension([other])

    def calls():
        _epilogue_kernels.serve_wanted(ext)  # deferred: still asked for after it
        built.append("calls ran")
        worker = threading.Thread(target=_epilogue_kernels.serve_wanted, args=(elsewhere,))
        worker.start()
        worker.join()

    ahead = _epilogue_kernels.build_ahead(calls, ext)
    assert ahead.result() == [k] and built == ["calls ran", other, k]
    _epilogue_kernels.serve_wanted(_FakeExtension([other]))  # compiling is on again here
    assert built[-1] == other and _epilogue_kernels.ENV_JIT not in os.environ
    monkeypatch.setenv(_epilogue_kernels.ENV_JIT, "0")
    assert _epilogue_kernels.build_ahead(lambda: built.append("ran"), _FakeExtension([k])).result() == []
    assert "ran" not in built


def test_kernel_keys_name_the_code_and_variant():
    """The key (the extension's epilogue_kernel_key) round-trips, reads back as the expression it
    compiles (for messages), and the unit written for it runs each step's op in its destination
    register, reading its sources."""
    y = E.result()
    p = E.compile(E.clamp(E.gelu(y * E.column(0) + E.row(0)), -1.0, 2.0))
    k = _epilogue_kernels.key(p.code, "fp16_scaled_data_parallel")
    assert _epilogue_kernels.parse_key(k) == (p.code, "fp16_scaled_data_parallel", 0)
    assert k == "fp16_scaled_data_parallel:" + ";".join(
        ",".join(str(v) for v in p.code[i:i + 5]) for i in range(0, len(p.code), 5))
    assert _epilogue_kernels.describe(p.code) == "clamp_max(clamp_min(gelu(add(mul(y, c0), w0)), k[0]), k[1])"
    assert _epilogue_kernels.describe(E.compile(E.where(E.gt(y, 0.5), y, -y)).code) == "where(gt(y, k[0]), y, neg(y))"
    text = _epilogue_kernels.program_source(p.code)
    assert "r0 = kw::cuda::epilogue_apply(static_cast<kw::EpilogueOp>(%d), r0, c0, r0);  // mul" % E.OPS.index(
        "mul") in text
    assert text.count("epilogue_apply(") == p.steps
    assert "w0" in text and "k[0]" in text and "k[1]" in text
    # Its shape: one column and one row vector read, nothing reduced; the GEMM's unit has no step.
    assert _epilogue_kernels.shape(k) == ("fp16_scaled_data_parallel", 1, 1, 0, 0)
    unit = _epilogue_kernels.shape_source(_epilogue_kernels.shape(k))
    assert "LinearFp16Programmed<false, false, false, Epilogue>" in unit and "epilogue_apply" not in unit
    assert "Frag const& c0, Frag const& w0," in unit and "kColumns = 1, kRows = 1, kFulls = 0, kReduce = 0" in unit
    for bad in ("fp16_split4_stream_k:0,0,0,0,0", "fp16_scaled_stream_k:0,0,0,0"):
        with pytest.raises(ValueError, match="key"):
            _epilogue_kernels.parse_key(bad)
    with pytest.raises(ValueError, match="variants"):
        E.build([y], ["fp16_split4"])


def test_compile_allocates_registers():
    y = E.result()
    p = E.compile(E.relu(y))
    assert p.code == [E.OPS.index("relu"), 0, 0, 0, 0]  # y's register is reused
    wide = (y + 1.0) * (y + 2.0) * ((y + 3.0) * (y + 4.0))  # four values live at once at most
    assert E.compile(wide).steps == 7
    chain = (y + 1.0) * ((y + 2.0) * ((y + 3.0) * ((y + 4.0) * (y + 5.0))))
    assert E.compile(chain).steps == 9  # its operands in the order that keeps few values live

    def balanced(depth, start):  # a tree of 2^depth sums whose products need depth + 1 values live
        if depth == 0:
            return E.exp(y + float(start))
        return balanced(depth - 1, start) * balanced(depth - 1, start + 2 ** (depth - 1))
    assert E.compile(balanced(3, 0)).steps == 8 + 8 + 7
    with pytest.raises(E.EpilogueError, match="live"):
        E.compile(balanced(4, 0))
    with pytest.raises(E.EpilogueError, match="column"):
        E.compile(y + E.column(torch.ones(2)) + E.column(torch.ones(2)) + E.column(torch.ones(2)))
    with pytest.raises(E.EpilogueError, match="constants"):
        E.compile(sum((y * float(i) for i in range(30)), E.result()))
    with pytest.raises(E.EpilogueError, match="steps"):
        long = y
        for i in range(40):
            long = E.relu(long)
        E.compile(long)
    with pytest.raises(TypeError, match="column"):
        y + torch.ones(3)


def test_every_op_renders_as_source_that_builds_it_again():
    """``Expr.source`` (what emitted modules hold) rebuilds the same program, op by op."""
    y = E.result()
    c = torch.randn(8)
    exprs = [E.gelu(y), E.gelu(y, approximate="tanh"), E.softplus(y, 2.0, 3.0), E.where(E.gt(y, 0.5), y, -y),
             E.clamp(y, -1.0, E.column(c)), (y ** 2.0) / (1.5 - y), E.mish(E.hardswish(y))]
    exprs += [getattr(E, name)(y) for name in ("neg", "abs", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt",
                                               "reciprocal", "sin", "cos", "tanh", "sigmoid", "erf", "relu",
                                               "floor", "ceil", "sign")]
    exprs += [getattr(E, name)(y, 0.25) for name in ("maximum", "minimum", "lt", "le", "gt", "ge", "eq", "ne",
                                                     "clamp_min", "clamp_max", "add", "sub", "mul", "div", "pow")]
    used = set()
    for e in exprs:
        text = e.source(lambda v: "c")
        again = eval("lambda y: " + text, {"_E": E, "c": c})  # noqa: S307 (our own rendering)
        want, got = E.compile(e), E.compile(again)
        assert (want.code, want.consts) == (got.code, got.consts), text
        used.update(E.OPS[op] for op in want.code[::5])
    assert used >= set(E.OPS) - {"copy"}


def test_opcodes_match_the_kernels():
    """The op codes are the positions in kw::EpilogueOp: the Python table and the C++ enum agree."""
    header = open(os.path.join(os.path.dirname(__file__), "..", "csrc", "include", "kw", "gemm.h")).read()
    body = header[header.index("#define KW_EPILOGUE_OPS(X)"):header.index("enum class EpilogueOp")]
    names = re.findall(r"\bX\(k([A-Z][A-Za-z0-9]*)\)", body)
    snake = [re.sub(r"(?<!^)(?=[A-Z])", "_", n).lower() for n in names]
    assert [{"recip": "reciprocal"}.get(s, s) for s in snake] == list(E.OPS)


def test_bad_input_is_a_clear_error(device):
    x, w, b = make(4, 8, 16, torch.float32, device)
    c, r = vectors(4, 8, device, 2)
    op = torch.ops.kernelwright.linear_program.default
    cases = [
        (lambda: op(x, w, b, [0, 0, 0, 0], [], [], [], [], None, None), ValueError, "code"),
        (lambda: op(x, w, b, [99, 0, 0, 0, 0], [], [], [], [], None, None), ValueError, "code"),
        (lambda: op(x, w, b, [0, 7, 0, 0, 0], [], [], [], [], None, None), ValueError, "code"),
        (lambda: op(x, w, b, [0, 0, 10, 0, 0], [], [], [], [], None, None), ValueError, "code"),  # a constant not given
        (lambda: K.linear(x, w, b, epilogue=lambda y: y + E.column(c[:7])), ValueError, r"columns\[0\]"),
        (lambda: K.linear(x, w, b, epilogue=lambda y: y + E.row(r.long())), TypeError, r"rows\[0\]"),
        (lambda: K.linear(x, w, b, "relu", epilogue=lambda y: y), ValueError, "not both"),
        (lambda: K.linear(x[:, :15], w, b, epilogue=lambda y: y), ValueError, "in_features"),
        (lambda: K.linear(x, w, b, epilogue=lambda y: E.gelu(y, approximate="fast")), ValueError, "approximate"),
    ]
    if device == "cuda":
        cases.append((lambda: K.linear(x, w, b, epilogue=lambda y: y * E.column(c.cpu())), ValueError, "device"))
    for call, exc, word in cases:
        with pytest.raises(exc, match=word):
            call()
    got = K.linear(x, w, b, epilogue=lambda y: E.relu(y) * E.column(c))  # the next call works
    torch.testing.assert_close(got, torch.relu(F.linear(x, w, b)) * c, rtol=1e-5, atol=1e-5)

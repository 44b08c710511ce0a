"""Pointwise epilogues for kernelwright's GEMM, written as expressions on its result.

``linear(x, weight, bias, epilogue=lambda y: E.clamp(E.gelu(y * 2.0 + E.column(s)), -1, 1))``
runs the chain in the GEMM's epilogue: the output is written once, after the chain, and the
GEMM's own result never reaches memory. The expression is compiled into a small register
program (``kw::EpilogueProgram``, csrc/include/kw/gemm.h), and the program into its own GEMM
kernel the first time a call needs it: nvcc compiles the GEMM once per shape of program (about
30 s), and each program is linked into it (a few seconds); all cached on disk, and
:func:`build` compiles ahead of time, in parallel. Until its kernel is
loaded a call runs the GEMM, then the program: the same result. Programs differing only in
their constants share a kernel. Operands: Python numbers, ``column(t)`` (a value per output
column, shape [out_features]: a bias, a per-feature scale), ``row(t)`` (a value per row of
the output, shape [rows]) and ``full(t)`` (a tensor of the output's shape: a residual, a gate,
two at most, staged tile by tile through shared memory beside the GEMM's result). Where the Hopper kernels do not run (other GPUs, the CPU, float64),
the same program runs with ATen ops on the GEMM's result.
"""

from kernelwright.ops._epilogue_expr import (CONSTS, LEAVES, OPS, REGISTERS, STEPS, EpilogueError, Expr,  # noqa: F401
                                             _node, _wrap, column, full, result, row)
from kernelwright.ops._common import ext
from kernelwright.ops import _epilogue_kernels
from kernelwright.ops._epilogue_program import Program, compile, evaluate  # noqa: F401


def build(programs, variants=None, jobs=None, reduce=None):
    """Compiles and loads the GEMM kernels of ``programs`` (Programs or expressions) ahead of
    their first call, ``jobs`` at a time (default: the CPUs). variants: names among
    ``kernelwright.ops.epilogue.VARIANTS`` (default all six: 'highest' splits three products,
    fused or with the cross products apart, 'high' one; each on data-parallel tiles or
    stream-K, as the shape picks). reduce: the kernels for ``linear(..., reduce=reduce)``
    instead. Returns the kernels' keys."""
    chosen = list(variants or VARIANTS)
    unknown = [v for v in chosen if v not in VARIANTS]
    if unknown:
        raise ValueError("build(): unknown variants %s; known: %s" % (unknown, ", ".join(VARIANTS)))
    if reduce is not None and reduce not in _epilogue_kernels.REDUCE_CODES:
        raise ValueError("build(): reduce must be one of %s, or None" % ", ".join(_epilogue_kernels.REDUCE_CODES))
    r = _epilogue_kernels.REDUCE_CODES[reduce] if reduce is not None else 0
    codes = [(p if isinstance(p, Program) else compile(p)).code for p in programs]
    return _epilogue_kernels.load([_epilogue_kernels.key(c, v, r) for c in codes for v in chosen], ext, jobs)


VARIANTS = tuple(_epilogue_kernels.variants())


def neg(x): return _node('neg', x)
def abs(x): return _node('abs', x)  # noqa: A001 (torch.abs's name)
def exp(x): return _node('exp', x)
def expm1(x): return _node('expm1', x)
def log(x): return _node('log', x)
def log1p(x): return _node('log1p', x)
def sqrt(x): return _node('sqrt', x)
def rsqrt(x): return _node('rsqrt', x)
def reciprocal(x): return _node('reciprocal', x)
def sin(x): return _node('sin', x)
def cos(x): return _node('cos', x)
def tanh(x): return _node('tanh', x)
def sigmoid(x): return _node('sigmoid', x)
def erf(x): return _node('erf', x)
def relu(x): return _node('relu', x)
def floor(x): return _node('floor', x)
def ceil(x): return _node('ceil', x)
def sign(x): return _node('sign', x)


def gelu(x, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise ValueError("gelu(): argument 'approximate' must be 'none' or 'tanh', got %r" % (approximate,))
    return _node("gelu" if approximate == "none" else "gelu_tanh", x)


def add(a, b): return _node("add", a, b)
def sub(a, b): return _node("sub", a, b)
def mul(a, b): return _node("mul", a, b)
def div(a, b): return _node("div", a, b)
def pow(a, b): return _node("pow", a, b)  # noqa: A001 (torch.pow's name)
def maximum(a, b): return _node("maximum", a, b)
def minimum(a, b): return _node("minimum", a, b)
def clamp_min(x, lo): return _node("clamp_min", x, lo)
def clamp_max(x, hi): return _node("clamp_max", x, hi)
def lt(a, b): return _node("lt", a, b)
def le(a, b): return _node("le", a, b)
def gt(a, b): return _node("gt", a, b)
def ge(a, b): return _node("ge", a, b)
def eq(a, b): return _node("eq", a, b)
def ne(a, b): return _node("ne", a, b)


def where(condition, a, b):
    """``a`` where ``condition`` is non-zero (a comparison gives 1 or 0), else ``b``."""
    return _node("where", condition, a, b)


def softplus(x, beta=1.0, threshold=20.0):
    return _node("softplus", x, beta, threshold)


def clamp(x, min=None, max=None):  # noqa: A002 (torch.clamp's names)
    if min is not None:
        x = clamp_min(x, min)
    return clamp_max(x, max) if max is not None else _wrap(x)


def hardtanh(x, min_val=-1.0, max_val=1.0):
    return clamp(x, min_val, max_val)


def silu(x):
    return mul(x, sigmoid(x))


def mish(x):
    return mul(x, tanh(softplus(x)))


def leaky_relu(x, negative_slope=0.01):
    return where(gt(x, 0.0), x, mul(x, negative_slope))


def hardsigmoid(x):
    return clamp(add(div(x, 6.0), 0.5), 0.0, 1.0)


def hardswish(x):
    return mul(x, hardsigmoid(x))


def elu(x, alpha=1.0, scale=1.0, input_scale=1.0):
    negative = mul(expm1(mul(x, input_scale)), alpha)
    return mul(where(gt(x, 0.0), x, negative), scale)

"""The two renderings of the optimizer's expressions: CUDA C++ for the GPU, and torch for the
CPU, where the same index arithmetic and the same math run vectorised so that a generated
kernel's logic can be checked without a GPU.

Both define the ``kw_*`` helpers that ``opset`` templates call, with the same semantics as
ATen (NaN propagation of max/min/clamp/relu included).
"""

import math
import struct

import torch

CUDA_TYPES = {"f32": "float", "f64": "double", "i64": "long long", "bool": "bool"}
STORAGE_TYPES = {torch.float32: "float", torch.float64: "double", torch.float16: "__half",
                 torch.bfloat16: "__nv_bfloat16", torch.int64: "long long", torch.int32: "int",
                 torch.int16: "short", torch.int8: "signed char", torch.uint8: "unsigned char",
                 torch.bool: "bool"}
TORCH_COMPUTE = {"f32": torch.float32, "f64": torch.float64, "i64": torch.int64, "bool": torch.bool}


def rounded(expr, dtype):
    """``expr`` rounded to ``dtype`` where that is a half type or an integer narrower than 64
    bits, as ATen rounds (or wraps) each such op's result: a chain of such ops would otherwise
    differ from the model. Both dialects define the helpers."""
    if dtype == torch.float16:
        return "kw_round_f16(%s)" % expr
    if dtype == torch.bfloat16:
        return "kw_round_bf16(%s)" % expr
    if dtype in _WRAPPED:  # integers compute in 64 bits: a narrower type's op wraps (a * 3 in int32)
        return "kw_wrap_%s(%s)" % (_WRAPPED[dtype], expr)
    return expr


_WRAPPED = {torch.int32: "int32", torch.int16: "int16", torch.int8: "int8", torch.uint8: "uint8"}


def float32(x):
    """``x`` rounded to float32 (as a Python float): a constant the kernels compute in float32,
    as ATen's do. A float32 quotient of two integers rounded once from double is float32's own."""
    return struct.unpack("f", struct.pack("f", x))[0]


def cuda_literal(value, ctype):
    if ctype == "bool":
        return "true" if value else "false"
    if ctype == "i64":
        # -2^63 written as a literal is 2^63, which long long cannot hold, negated.
        return "(-9223372036854775807LL - 1)" if int(value) == -2 ** 63 else "%dLL" % int(value)
    value = float(value)
    if math.isnan(value):
        return "(0.0f / 0.0f)" if ctype == "f32" else "(0.0 / 0.0)"
    if math.isinf(value):
        inf = "(1.0f / 0.0f)" if ctype == "f32" else "(1.0 / 0.0)"
        return inf if value > 0 else "(-%s)" % inf
    text = repr(value)
    if "e" not in text and "." not in text:
        text += ".0"
    return "%sf" % text if ctype == "f32" else text


def torch_literal(value, ctype):
    if ctype == "bool":
        return "True" if value else "False"
    if ctype == "i64":
        return "%d" % int(value)
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return "float(%r)" % repr(value)
    return repr(value)


def cuda_cast(expr, ctype):
    return "static_cast<%s>(%s)" % (CUDA_TYPES[ctype], expr)


def torch_cast(expr, ctype):
    return "kw_cast(%s, %r)" % (expr, ctype)


# The torch rendering's helpers: the same names, vectorised.
def _where(c, a, b):
    return torch.where(torch.as_tensor(c), torch.as_tensor(a), torch.as_tensor(b))


def _maximum(a, b):
    a, b = torch.as_tensor(a), torch.as_tensor(b)
    return torch.where(torch.isnan(a) | (a > b), a, b)


def _minimum(a, b):
    a, b = torch.as_tensor(a), torch.as_tensor(b)
    return torch.where(torch.isnan(a) | (a < b), a, b)


def _cast(x, ctype):
    x = torch.as_tensor(x)
    return x.to(TORCH_COMPUTE[ctype])


def _softplus(x, beta, threshold):
    x = torch.as_tensor(x)
    return torch.where(x * beta > threshold, x, torch.log1p(torch.exp(x * beta)) / beta)


def _on_tensors(fn):
    """``fn`` (torch.fmax, fmin: tensors only) taking a Python number for either operand, in
    the other's type, as the kernel's literal is."""
    def call(a, b):
        like = a if isinstance(a, torch.Tensor) else b
        if not isinstance(like, torch.Tensor):
            return fn(torch.as_tensor(a), torch.as_tensor(b))
        return fn(*(x if isinstance(x, torch.Tensor) else torch.as_tensor(x, dtype=like.dtype, device=like.device)
                    for x in (a, b)))
    return call


def _logical(fn):
    """``fn`` (torch.logical_and, _or, _xor: symmetric) taking a Python bool for either operand."""
    def call(a, b):
        if not isinstance(a, torch.Tensor):
            a, b = b, a
        return fn(a, b if isinstance(b, torch.Tensor) else torch.as_tensor(b, device=a.device))
    return call


def _like(value):
    return lambda x: torch.full_like(torch.as_tensor(x), value)


TORCH_HELPERS = {
    "kw_abs": torch.abs, "kw_exp": torch.exp, "kw_exp2": torch.exp2, "kw_expm1": torch.expm1,
    "kw_log": torch.log, "kw_log1p": torch.log1p, "kw_log2": torch.log2, "kw_log10": torch.log10,
    "kw_sqrt": torch.sqrt, "kw_rsqrt": torch.rsqrt, "kw_sin": torch.sin, "kw_cos": torch.cos,
    "kw_tan": torch.tan, "kw_asin": torch.asin, "kw_acos": torch.acos, "kw_atan": torch.atan,
    "kw_sinh": torch.sinh, "kw_cosh": torch.cosh, "kw_tanh": torch.tanh, "kw_asinh": torch.asinh,
    "kw_acosh": torch.acosh, "kw_atanh": torch.atanh, "kw_erf": torch.erf, "kw_erfc": torch.erfc,
    "kw_floor": torch.floor, "kw_ceil": torch.ceil, "kw_rint": torch.round, "kw_trunc": torch.trunc,
    "kw_erfinv": torch.erfinv, "kw_lgamma": torch.lgamma,
    "kw_sigmoid": torch.sigmoid, "kw_gelu": lambda x: torch.nn.functional.gelu(x),
    "kw_gelu_tanh": lambda x: torch.nn.functional.gelu(x, approximate="tanh"),
    "kw_hardsigmoid": torch.nn.functional.hardsigmoid, "kw_one": _like(1), "kw_twenty": _like(20),
    "kw_relu": torch.relu, "kw_sign": torch.sign, "kw_isnan": torch.isnan, "kw_isinf": torch.isinf,
    "kw_maximum": _maximum, "kw_minimum": _minimum, "kw_fmax": _on_tensors(torch.fmax), "kw_fmin": _on_tensors(torch.fmin),
    "kw_clamp_min": lambda x, lo: torch.where(torch.as_tensor(x) < lo, torch.as_tensor(lo, dtype=torch.as_tensor(x).dtype), x),
    "kw_clamp_max": lambda x, hi: torch.where(torch.as_tensor(x) > hi, torch.as_tensor(hi, dtype=torch.as_tensor(x).dtype), x),
    "kw_where": _where, "kw_not": torch.logical_not, "kw_and": _logical(torch.logical_and),
    "kw_or": _logical(torch.logical_or), "kw_xor": _logical(torch.logical_xor),
    "kw_pow": lambda a, b: torch.pow(torch.as_tensor(a), b), "kw_atan2": torch.atan2,
    "kw_fmod": torch.fmod, "kw_copysign": torch.copysign, "kw_hypot": torch.hypot, "kw_remainder": torch.remainder,
    "kw_shr": torch.bitwise_right_shift, "kw_shl": torch.bitwise_left_shift,
    "kw_leaky_relu": lambda x, s: torch.where(x > 0, x, x * s),
    "kw_elu": lambda x, a, s, i: torch.where(x > 0, s * x, s * a * torch.expm1(x * i)),
    "kw_softplus": _softplus,
    "kw_round_f16": lambda x: x.to(torch.float16).to(x.dtype),
    "kw_round_bf16": lambda x: x.to(torch.bfloat16).to(x.dtype),
    **{"kw_wrap_" + name: (lambda t: lambda x: torch.as_tensor(x).to(t).to(torch.int64))(t) for t, name in _WRAPPED.items()},
    "kw_cast": _cast,
    "kw_floordiv": lambda a, b: torch.div(torch.as_tensor(a), b, rounding_mode="floor"),
    "kw_truncdiv": lambda a, b: torch.div(torch.as_tensor(a), b, rounding_mode="trunc"),
    "kw_imin": lambda a, b: torch.clamp(torch.as_tensor(a), max=b),
    "kw_imax": lambda a, b: torch.clamp(torch.as_tensor(a), min=b),
    "kw_iclamp": lambda x, lo, hi: torch.clamp(torch.as_tensor(x), lo, hi),
    "kw_inside": lambda x, lo, hi: (torch.as_tensor(x) >= lo) & (torch.as_tensor(x) < hi),
    "kw_nearest": lambda o, scale, n: torch.clamp(torch.floor(torch.as_tensor(o).to(torch.float32) * scale), max=n - 1).long(),
    "kw_ipick": lambda ok, x: torch.where(torch.as_tensor(ok), torch.as_tensor(x), 0),
    "kw_index": lambda v, n: torch.clamp(torch.where(torch.as_tensor(v) < 0, torch.as_tensor(v) + n, torch.as_tensor(v)), 0, n - 1).long(),
}


class _Dialect:
    divide = "/"

    def idiv(self, a, b):
        return "%s %s %d" % (self.paren(a), self.divide, b)

    def imod(self, a, b):
        return "%s %% %d" % (self.paren(a), b)

    @staticmethod
    def paren(e):
        return e if e.replace("_", "a").isalnum() else "(%s)" % e


class Cuda(_Dialect):
    """CUDA C++: scalar variables, one element per thread and loop iteration."""

    name = "cuda"
    literal = staticmethod(cuda_literal)
    cast = staticmethod(cuda_cast)

    def __init__(self, index_type="int"):
        self.index_type = index_type

    def assign(self, var, expr, ctype):
        t = self.index_type if ctype == "idx" else CUDA_TYPES[ctype]
        return "const %s %s = %s;" % (t, var, expr)

    def load(self, pointer, offset, ctype):
        return "static_cast<%s>(kw_load(%s[%s]))" % (CUDA_TYPES[ctype], pointer, offset)

    def row_load(self, k, offset, ctype):
        return "static_cast<%s>(KW_ROW_LOAD(%d, %s))" % (CUDA_TYPES[ctype], k, offset)

    def masked_load(self, pointer, offset, mask, fill, ctype, span):
        # A conditional expression, not kw_where: the load is predicated, so an offset outside
        # the tensor is never read.
        return "(%s ? %s : %s)" % (mask, self.load(pointer, offset, ctype), fill)


class Torch(_Dialect):
    """torch on the CPU: each variable holds every element at once (rows x columns)."""

    name = "torch"
    divide = "//"
    literal = staticmethod(torch_literal)
    cast = staticmethod(torch_cast)

    def assign(self, var, expr, ctype):
        return "%s = %s" % (var, expr)

    def load(self, pointer, offset, ctype):
        return "kw_ld(%s, %s, %r)" % (pointer, offset, ctype)

    def masked_load(self, pointer, offset, mask, fill, ctype, span):
        # Every element is read at once here, so the masked-out offsets are clamped into the
        # tensor's span first and their values dropped.
        return "kw_where(%s, %s, %s)" % (mask, self.load(pointer, "kw_iclamp(%s, 0, %d)" % (offset, max(span - 1, 0)), ctype),
                                         fill)


def torch_load(t, offset, ctype):
    offset = torch.as_tensor(offset, device=t.device)
    flat = torch.as_strided(t, (max(int(offset.max()) + 1, 1) if offset.numel() else 1,), (1,), t.storage_offset())
    return flat[offset].to(TORCH_COMPUTE[ctype])


TORCH_HELPERS["kw_ld"] = torch_load


def storage_span(shape, stride):
    """Elements from a strided tensor's first to its last, inclusive (0 for an empty one)."""
    return 1 + sum((n - 1) * st for n, st in zip(shape, stride)) if all(shape) else 0


def torch_store(out, offset, value):
    offset = torch.as_tensor(offset)
    value = torch.as_tensor(value)
    shape = torch.broadcast_shapes(offset.shape, value.shape)
    span = storage_span(out.shape, out.stride())
    flat = torch.as_strided(out, (span,), (1,))
    flat[offset.broadcast_to(shape).reshape(-1)] = value.broadcast_to(shape).reshape(-1).to(out.dtype)


def torch_grid(value, rows, cols):
    return torch.as_tensor(value).broadcast_to((rows, cols))


TORCH_HELPERS["kw_st"] = torch_store
TORCH_HELPERS["kw_grid"] = torch_grid

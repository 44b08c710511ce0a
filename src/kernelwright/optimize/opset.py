"""What the planner knows of each ATen op: its kind, and for pointwise ops the expression it
computes, written once for every code generator.

Expressions use the helper names of ``dialects.py`` (``kw_exp``, ``kw_where`` ...), which both
the CUDA and the torch dialect define, so one template serves the generated kernel and its
CPU rendering. ``{a}``, ``{b}``, ``{c}`` are the tensor operands (already at the node's compute
type); ``{p0}``, ``{p1}`` ... are scalar parameters rendered as literals of that type.
"""

from dataclasses import dataclass

import torch

aten = torch.ops.aten
prims = torch.ops.prims

POINTWISE = "pointwise"
REDUCTION = "reduction"
VIEW = "view"
CONSTANT = "constant"
WINDOW = "window"  # pooling, bilinear upsampling: each output element reduces a small window of its input
SCAN = "scan"  # cumulative sum, product and log-sum-exp along one dim

# op -> (template, names of the scalar parameters taken from args/kwargs after the tensors)
_UNARY = {
    "abs": "kw_abs({a})", "neg": "(-{a})", "exp": "kw_exp({a})", "exp2": "kw_exp2({a})",
    "expm1": "kw_expm1({a})", "log": "kw_log({a})", "log1p": "kw_log1p({a})", "log2": "kw_log2({a})",
    "log10": "kw_log10({a})", "sqrt": "kw_sqrt({a})", "rsqrt": "kw_rsqrt({a})",
    "reciprocal": "(kw_one({a}) / {a})", "sin": "kw_sin({a})", "cos": "kw_cos({a})", "tan": "kw_tan({a})",
    "asin": "kw_asin({a})", "acos": "kw_acos({a})", "atan": "kw_atan({a})", "sinh": "kw_sinh({a})",
    "cosh": "kw_cosh({a})", "tanh": "kw_tanh({a})", "asinh": "kw_asinh({a})", "acosh": "kw_acosh({a})",
    "atanh": "kw_atanh({a})", "sigmoid": "kw_sigmoid({a})", "erf": "kw_erf({a})", "erfc": "kw_erfc({a})",
    "erfinv": "kw_erfinv({a})", "lgamma": "kw_lgamma({a})",
    "sign": "kw_sign({a})", "floor": "kw_floor({a})", "ceil": "kw_ceil({a})",
    "trunc": "kw_trunc({a})", "frac": "({a} - kw_trunc({a}))", "relu": "kw_relu({a})",
    "silu": "({a} * kw_sigmoid({a}))", "mish": "({a} * kw_tanh(kw_softplus({a}, kw_one({a}), kw_twenty({a}))))",
    "hardsigmoid": "kw_hardsigmoid({a})", "hardswish": "({a} * kw_hardsigmoid({a}))",
    "logical_not": "kw_not({a})", "isnan": "kw_isnan({a})",
    "isinf": "kw_isinf({a})", "clone": "{a}", "alias": "{a}", "lift_fresh_copy": "{a}",
    "_to_copy": "{a}", "convert_element_type": "{a}", "positive": "{a}",
}
_BINARY = {
    "mul": "({a} * {b})", "div": "({a} / {b})", "maximum": "kw_maximum({a}, {b})",
    "minimum": "kw_minimum({a}, {b})", "fmax": "kw_fmax({a}, {b})", "fmin": "kw_fmin({a}, {b})",
    "atan2": "kw_atan2({a}, {b})", "fmod": "kw_fmod({a}, {b})", "remainder": "kw_remainder({a}, {b})",
    "copysign": "kw_copysign({a}, {b})", "hypot": "kw_hypot({a}, {b})",
    "eq": "({a} == {b})", "ne": "({a} != {b})", "lt": "({a} < {b})", "le": "({a} <= {b})",
    "gt": "({a} > {b})", "ge": "({a} >= {b})", "logical_and": "kw_and({a}, {b})",
    "logical_or": "kw_or({a}, {b})", "logical_xor": "kw_xor({a}, {b})", "pow": "kw_pow({a}, {b})",
    "copy": "{b}", "__rshift__": "kw_shr({a}, {b})", "bitwise_right_shift": "kw_shr({a}, {b})",
    "__lshift__": "kw_shl({a}, {b})", "bitwise_left_shift": "kw_shl({a}, {b})",
}
_COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge"}
_PREDICATES = {"isnan", "isinf"}
_LOGICAL = {"logical_and", "logical_or", "logical_xor", "logical_not"}
# Bitwise ops are logic on bool tensors and bit operations on integers: (logical, integer).
_BITWISE = {"bitwise_and": ("kw_and({a}, {b})", "({a} & {b})"), "bitwise_or": ("kw_or({a}, {b})", "({a} | {b})"),
            "bitwise_xor": ("kw_xor({a}, {b})", "({a} ^ {b})"), "bitwise_not": ("kw_not({a})", "(~{a})")}

_REDUCTIONS = {"sum", "mean", "amax", "amin", "prod", "var", "std", "argmax", "argmin"}
_VIEWS = {"view", "_unsafe_view", "reshape", "expand", "permute", "unsqueeze", "squeeze", "t", "transpose",
          "slice", "select", "as_strided", "broadcast_in_dim", "alias_view", "flip", "repeat", "cat",
          "constant_pad_nd", "gather", "index_select", "embedding", "index", "slice_scatter",
          "upsample_nearest1d", "upsample_nearest2d", "upsample_nearest3d"}
# Views by their coordinates that ATen computes as copies: worth a kernel of their own. (cat,
# constant_pad_nd and a scatter into a slice select each element from one of several sources:
# ``selects``; gather and the other picks read at coordinates another tensor holds: ``indexing``.)
_COPYING_VIEWS = {"flip", "repeat", "cat", "constant_pad_nd", "gather", "index_select", "embedding", "index",
                  "slice_scatter", "upsample_nearest1d", "upsample_nearest2d", "upsample_nearest3d"}
_CONSTANTS = {"full", "scalar_tensor", "full_like", "zeros_like", "ones_like", "arange"}
_WINDOWS = {"max_pool2d": 2, "max_pool3d": 3, "avg_pool2d": 2, "avg_pool3d": 3}
ADAPTIVE = {"_adaptive_avg_pool2d": 2, "_adaptive_avg_pool3d": 3}  # window.py's _adaptive
INTERPOLATIONS = {"upsample_bilinear2d"}  # interpolate.py


def op_name(target):
    """'add' for aten.add.Tensor, 'var' for prims.var.default; None for non-op targets."""
    schema_name = getattr(target, "_schema", None)
    if schema_name is None:
        return None
    return schema_name.name.split("::")[-1]


def slice_bounds(start, end, size):
    """A slice's [start, end) in a dim of ``size``, as Python reads them: None for the ends,
    negative bounds counted from the end, both clamped into the dim."""
    start = 0 if start is None else min(max(start + size if start < 0 else start, 0), size)
    end = size if end is None else min(max(end + size if end < 0 else end, start), size)
    return start, end


def copies(node):
    """Whether ATen materialises this view (a fused consumer reads through it for free)."""
    return op_name(node.target) in _COPYING_VIEWS


def kind(node):
    """The planner's class of an FX node: pointwise, reduction, view, constant, or None (ATen)."""
    if node.op != "call_function":
        return None
    name = op_name(node.target)
    if name is None:
        return None
    val = node.meta.get("val")
    if not isinstance(val, torch.Tensor):
        return None  # tuple outputs (max.dim, var_mean ...) stay with ATen
    if name in _VIEWS:
        return VIEW
    if name in _CONSTANTS:
        return CONSTANT
    if name in _REDUCTIONS:
        return REDUCTION
    if name in _WINDOWS or name in ADAPTIVE or name in INTERPOLATIONS:
        return WINDOW
    if name in ("cumsum", "cumprod", "logcumsumexp"):
        return SCAN
    if name in _UNARY or name in _BINARY or name in _EXTRA:
        return POINTWISE
    return None


def _alpha(template):
    def build(node, args):
        alpha = node.kwargs.get("alpha", 1)
        if alpha == 1:
            return template.format(a="{a}", b="{b}"), []
        return template.format(a="{a}", b="({p0} * {b})"), [alpha]
    return build


def _clamp(node, args):
    lo = args[1] if len(args) > 1 else node.kwargs.get("min")
    hi = args[2] if len(args) > 2 else node.kwargs.get("max")
    return _clamp_expr(lo, hi)


def _clamp_expr(lo, hi):
    expr, params = "{a}", []
    if isinstance(lo, torch.fx.Node):
        expr = "kw_clamp_min(%s, {b})" % expr
    elif lo is not None:
        expr, params = "kw_clamp_min(%s, {p%d})" % (expr, len(params)), params + [lo]
    if isinstance(hi, torch.fx.Node):
        expr = "kw_clamp_max(%s, {%s})" % (expr, "c" if isinstance(lo, torch.fx.Node) else "b")
    elif hi is not None:
        expr, params = "kw_clamp_max(%s, {p%d})" % (expr, len(params)), params + [hi]
    return expr, params


def _pow(node, args):
    e = args[1]
    if isinstance(e, torch.fx.Node):
        return "kw_pow({a}, {b})", []
    simple = {2: "({a} * {a})", 1: "{a}", 0.5: "kw_sqrt({a})", -1: "(kw_one({a}) / {a})", 3: "({a} * {a} * {a})",
              -0.5: "kw_rsqrt({a})", 0: "kw_one({a})"}
    if e in simple:
        return simple[e], []
    return "kw_pow({a}, {p0})", [e]


def _gelu(node, args):
    approximate = node.kwargs.get("approximate", args[1] if len(args) > 1 else "none")
    if approximate == "tanh":
        return "kw_gelu_tanh({a})", []
    return "kw_gelu({a})", []


def _elu(node, args):
    alpha, scale, input_scale = (list(args[1:]) + [1.0, 1.0, 1.0][len(args) - 1:])[:3]
    return "kw_elu({a}, {p0}, {p1}, {p2})", [alpha, scale, input_scale]


def _leaky_relu(node, args):
    slope = args[1] if len(args) > 1 else node.kwargs.get("negative_slope", 0.01)
    return "kw_leaky_relu({a}, {p0})", [slope]


def _hardtanh(node, args):
    lo = args[1] if len(args) > 1 else -1.0
    hi = args[2] if len(args) > 2 else 1.0
    return _clamp_expr(lo, hi)


def _softplus(node, args):
    beta = args[1] if len(args) > 1 else node.kwargs.get("beta", 1.0)
    threshold = args[2] if len(args) > 2 else node.kwargs.get("threshold", 20.0)
    return "kw_softplus({a}, {p0}, {p1})", [beta, threshold]


def _where(node, args):
    return "kw_where({a}, {b}, {c})", []


def _div(node, args):
    mode = node.kwargs.get("rounding_mode", args[2] if len(args) > 2 else None)
    if mode == "trunc":
        return "kw_truncdiv({a}, {b})", []
    if mode == "floor":
        return "kw_floordiv({a}, {b})", []
    return "({a} / {b})", []


def _masked_fill(node, args):
    return "kw_where({b}, {p0}, {a})", [args[2]]


def _lerp(node, args):
    if isinstance(args[2], torch.fx.Node):
        return "({a} + {c} * ({b} - {a}))", []
    return "({a} + {p0} * ({b} - {a}))", [args[2]]


def _addcmul(node, args):
    return "({a} + {p0} * {b} * {c})", [node.kwargs.get("value", 1)]


def _round(node, args):
    # ATen's round.decimals: rint(x * 10^d) / 10^d, or for d < 0 rint(x / 10^-d) * 10^-d, the
    # power of ten made in double and used in the compute type.
    decimals = node.kwargs.get("decimals", args[1] if len(args) > 1 else 0)
    if not decimals:
        return "kw_rint({a})", []
    if decimals > 0:
        return "(kw_rint({a} * {p0}) / {p0})", [10.0 ** decimals]
    return "(kw_rint({a} / {p0}) * {p0})", [10.0 ** -decimals]


def _threshold(node, args):
    return "kw_where({a} > {p0}, {a}, {p1})", [args[1], args[2]]


def _bitwise(name):
    logical, integer = _BITWISE[name]
    return lambda node, args: (logical if node.meta["val"].dtype == torch.bool else integer, [])


_EXTRA = {
    "add": _alpha("({a} + {b})"), "sub": _alpha("({a} - {b})"), "clamp": _clamp,
    "clamp_min": lambda n, a: _clamp_expr(a[1], None), "clamp_max": lambda n, a: _clamp_expr(None, a[1]),
    "pow": _pow, "gelu": _gelu, "elu": _elu, "leaky_relu": _leaky_relu, "hardtanh": _hardtanh,
    "softplus": _softplus, "where": _where, "div": _div, "masked_fill": _masked_fill, "lerp": _lerp,
    "addcmul": _addcmul, "threshold": _threshold, "round": _round,
    **{name: _bitwise(name) for name in _BITWISE},
}


def expression(node):
    """(template, scalar params, tensor operands) for a pointwise node; raises KeyError if unknown."""
    name = op_name(node.target)
    args = list(node.args)
    if name in _EXTRA:
        template, params = _EXTRA[name](node, args)
    elif name in _UNARY:
        template, params = _UNARY[name], []
    else:
        template, params = _BINARY[name], []
    # The template's {a} {b} {c} are the leading tensors and numbers (x + 2.0 takes the number
    # as {b}); numbers after them are the scalar parameters the template names {p0} ...
    operands = [a for a in args if isinstance(a, (torch.fx.Node, bool, int, float))]
    # Up to the last letter the template names: copy's "{b}" takes its second operand.
    n = max((i + 1 for i, key in enumerate(("{a}", "{b}", "{c}")) if key in template), default=0)
    if len(operands) < n:
        raise KeyError("operands")
    return template, params, operands[:n]


def reads_operand(template, i):
    """Whether an expression's template reads its ``i``-th operand: copy's reads only its source,
    the destination lending the result its shape and dtype."""
    return "{%s}" % "abc"[i] in template


def unread_operands(node):
    """The tensor operands of a pointwise node that its expression never reads (none for an op
    without one), and the empty parts of a concatenation, which add no elements to read."""
    if op_name(node.target) == "cat":
        return [t for t in node.args[0] if isinstance(t, torch.fx.Node) and t.meta["val"].numel() == 0]
    try:
        template, _, operands = expression(node)
    except KeyError:
        return []
    return [o for i, o in enumerate(operands) if isinstance(o, torch.fx.Node) and not reads_operand(template, i)]


def casts_operands_to_result(name):
    """Whether ATen casts this op's tensor operands to its result's type before computing (its
    common type is the result's): false for comparisons and predicates, whose result is bool."""
    return name not in _COMPARISONS and name not in _PREDICATES


def operand_ctype(name, result_ctype, operand_ctypes):
    """The type operands are cast to before the op: comparisons and logic compare in the wider
    operand type, predicates of a value (isnan, isinf) look at it in its own; everything else
    computes in the result's type."""
    if name in _COMPARISONS or name in _PREDICATES:
        return widest(operand_ctypes)
    if name in _LOGICAL:
        return "bool"
    if name in _BITWISE:
        return result_ctype  # bool for logic on bool tensors, the integer type for bit operations
    if name == "where":
        return None  # the condition stays bool; the branches take the result's type
    return result_ctype


_RANK = {"bool": 0, "i64": 1, "f32": 2, "f64": 3}


def widest(ctypes):
    return max(ctypes, key=_RANK.__getitem__) if ctypes else "f32"


def ctype_of(dtype):
    if dtype == torch.float64:
        return "f64"
    if dtype.is_floating_point:
        return "f32"
    if dtype == torch.bool:
        return "bool"
    if dtype.is_complex:
        raise KeyError("complex")
    return "i64"


@dataclass
class Window:
    """A pooling op's parameters, one entry a pooled (trailing) dim, defaults filled in."""

    op: str  # "max" or "avg"
    kernel: tuple
    stride: tuple
    padding: tuple
    dilation: tuple
    count_include_pad: bool = True
    divisor_override: int = 0


def upsample_factors(node, n):
    """The scale factor an upsampling call was given for each of its ``n`` spatial dims (None
    where it was given an output size alone), from either overload: ``scale_factors`` (.vec)
    or ``scales_d/h/w``."""
    names = [a.name for a in node.target._schema.arguments]
    given = dict(zip(names, node.args))
    given.update(node.kwargs)
    if "scale_factors" in names:
        return list(given.get("scale_factors") or [None] * n)
    return [given.get(k) for k in names if k.startswith("scales")]


def window(node):
    """The ``Window`` of a pooling node, its arguments as the op's schema names them."""
    name = op_name(node.target)
    n = _WINDOWS[name]
    names = [a.name for a in node.target._schema.arguments]
    given = dict(zip(names, node.args))
    given.update(node.kwargs)

    def dims(key, default):
        v = given.get(key, default)
        v = list(v) if isinstance(v, (list, tuple)) else [v]
        return tuple(v * n if len(v) == 1 else v) if v else None

    kernel = dims("kernel_size", None)
    stride = dims("stride", []) or kernel
    padding = dims("padding", 0)
    if name.startswith("max"):
        return Window("max", kernel, stride, padding, dims("dilation", 1))
    return Window("avg", kernel, stride, padding, (1,) * n, bool(given.get("count_include_pad", True)),
                  int(given.get("divisor_override") or 0))

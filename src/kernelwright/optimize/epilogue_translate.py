"""Translation of a group's ATen nodes into a GEMM epilogue expression
(``kernelwright.ops.epilogue``): each op into the epilogue's, each input into a value per column,
per row or one value of the GEMM's result, or Unsupported with the reason the group stays apart."""

import torch

from kernelwright.ops import epilogue as E

from . import opset
from .emitter import meta
from .ir import Unsupported

# Views that keep the elements in the same order (only the shape changes): the epilogue writes
# the GEMM's result in its own order, so a group may read it through these and no others (a
# transpose of a square result has the same shape and another order).
RESHAPES = ("view", "_unsafe_view", "reshape", "unsqueeze", "squeeze", "alias")
_PASS = ("clone", "alias", "lift_fresh_copy", "_to_copy", "convert_element_type", "positive")
_UNARY = {name: getattr(E, name) for name in (
    "neg", "abs", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tanh",
    "sigmoid", "erf", "relu", "floor", "ceil", "sign", "silu", "mish", "hardsigmoid", "hardswish")}
_BINARY = {name: getattr(E, name) for name in (
    "mul", "maximum", "minimum", "lt", "le", "gt", "ge", "eq", "ne", "pow", "clamp_min", "clamp_max")}



def scalars_to_free_slots(expr):
    """One value (a 0-dim parameter) is read as a vector of copies: along the columns where two
    column vectors are not already read, else along the rows."""
    columns = [v for v in expr.leaves("column") if v[1] == "column"]
    scalars = [v for v in expr.leaves("column") if v[1] == "scalar"]
    along_rows = scalars[max(0, 2 - len(columns)):]
    if not along_rows:
        return expr
    moved = {id(v): E.row((v[0], "scalar-row")) for v in along_rows}
    return expr.replace(lambda e: moved.get(id(e.value)) if e.op == "column" else None)


def broadcast_kind(shape, out):
    """'column', 'row', 'scalar' or 'full': how a tensor of ``shape`` broadcasts against the
    output's shape ``out`` (rows: all its dims but the last, flattened), or None."""
    shape = tuple(shape)
    if len(shape) > len(out):
        return None
    dims = (1,) * (len(out) - len(shape)) + shape
    if all(d == 1 for d in dims):
        return "scalar"
    if dims == out:
        return "full"
    if dims[-1] == out[-1] and all(d == 1 for d in dims[:-1]):
        return "column"
    if dims[-1] == 1 and dims[:-1] == out[:-1]:
        return "row"
    return None


def leaf(node, out):
    """An input of the group as the epilogue reads it: a value per column or row, one value, or
    one per element (a full-size operand, read beside the GEMM's result)."""
    val = meta(node)
    if not isinstance(val, torch.Tensor) or val.dtype != torch.float32:
        raise Unsupported("%s is not a float32 tensor" % node.name)
    kind = broadcast_kind(val.shape, out)
    if kind is None:
        raise Unsupported("%s does not broadcast" % node.name)
    return E.Expr(kind if kind != "scalar" else "column", (), (node, kind))


def translate(node, exprs, out):
    """``node`` as an epilogue expression of ``exprs`` (FX node -> expression: its inputs'), for
    an output of shape ``out``."""
    name = opset.op_name(node.target)
    val = meta(node)
    if not isinstance(val, torch.Tensor) or val.dtype not in (torch.float32, torch.bool):
        raise Unsupported("%s computes in %s" % (name, getattr(val, "dtype", "no tensor")))
    kind = opset.kind(node)
    if kind == opset.VIEW:
        if name not in RESHAPES:
            raise Unsupported("a view (%s) that reorders elements" % name)
        src = exprs.get(node.args[0])
        if src is None or not _same_broadcast(meta(node.args[0]).shape, val.shape, out):
            raise Unsupported("a view (%s) that moves values between rows and columns" % name)
        return src
    if kind == opset.CONSTANT:
        value = node.args[0] if name == "scalar_tensor" else (node.args[1] if name == "full" else None)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Unsupported("%s is not a number the epilogue holds" % name)
        return E.Expr("const", (), float(value))
    if kind != opset.POINTWISE:
        raise Unsupported("%s is not pointwise" % name)
    if any(isinstance(a, torch.fx.Node) and a not in exprs for a in node.args):
        raise Unsupported("%s reads a value from outside" % name)
    args = [exprs[a] if isinstance(a, torch.fx.Node) else a for a in node.args]
    try:
        return _apply(name, node, args)
    except (TypeError, KeyError, IndexError) as why:
        raise Unsupported("%s with these arguments has no epilogue op" % name) from why


def _same_broadcast(a, b, out):
    return broadcast_kind(a, out) == broadcast_kind(b, out) and broadcast_kind(a, out) is not None


def _apply(name, node, args):
    kw = node.kwargs
    if name in _PASS:  # float32 or bool in and out (checked by the caller)
        x = E._wrap(args[0])
        to_bool = meta(node).dtype == torch.bool and meta(node.args[0]).dtype != torch.bool
        return E.ne(x, 0.0) if to_bool else x  # a comparison's value is 1 or 0 already
    if name in _UNARY:
        return _UNARY[name](args[0])
    if name in _BINARY:
        return _BINARY[name](args[0], args[1])
    if name in ("add", "sub"):
        b = args[1] if kw.get("alpha", 1) == 1 else E.mul(args[1], kw["alpha"])
        return E.add(args[0], b) if name == "add" else E.sub(args[0], b)
    if name == "rsub":  # other - alpha * x
        return E.sub(args[1], args[0] if kw.get("alpha", 1) == 1 else E.mul(args[0], kw["alpha"]))
    if name == "div":
        if kw.get("rounding_mode") is not None:
            raise KeyError("rounding_mode")
        return E.div(args[0], args[1])
    if name == "gelu":
        return E.gelu(args[0], kw.get("approximate", args[1] if len(args) > 1 else "none"))
    if name == "clamp":
        lo = args[1] if len(args) > 1 else kw.get("min")
        hi = args[2] if len(args) > 2 else kw.get("max")
        return E.clamp(args[0], lo, hi)
    if name == "hardtanh":
        return E.hardtanh(args[0], *(args[1:3] or [-1.0, 1.0]))
    if name == "where":
        return E.where(args[0], args[1], args[2])
    if name == "softplus":
        return E.softplus(args[0], *(args[1:3] or [kw.get("beta", 1.0), kw.get("threshold", 20.0)]))
    if name == "leaky_relu":
        return E.leaky_relu(args[0], args[1] if len(args) > 1 else kw.get("negative_slope", 0.01))
    if name == "elu":
        return E.elu(args[0], *args[1:4])
    raise KeyError(name)

"""GEMM epilogues: a pointwise group whose only GEMM operand is a GEMM's result can run in that
GEMM's epilogue (``kernelwright.ops.linear(..., epilogue=...)``), so that the result is written
once, after the chain, instead of written, read back and written again.

``candidates`` finds the (GEMM, group) pairs and translates each group into an epilogue
expression (``kernelwright.ops.epilogue``) whose vectors are the group's other inputs, each read
as a value per column or per row of the GEMM's result; a group with a full-size operand, an op
the epilogue lacks, or a dtype other than float32 stays a kernel of its own, and the decision
says why. ``tune`` times each candidate against the GEMM and the group apart, in the same run,
and keeps it only where it is correct and faster.
"""

import functools
from dataclasses import dataclass

import torch

from kernelwright.ops import epilogue as E

from . import anchors, opset
from .emitter import meta
from .ir import Group, Unsupported

_GEMMS = ("mm", "addmm")
# Views that keep the elements in the same order (only the shape changes): the epilogue writes
# the GEMM's result in its own order, so a group may read it through these and no others (a
# transpose of a square result has the same shape and another order).
_RESHAPES = ("view", "_unsafe_view", "reshape", "unsqueeze", "squeeze", "alias")
_PASS = ("clone", "alias", "lift_fresh_copy", "_to_copy", "convert_element_type", "positive")
_UNARY = {name: getattr(E, name) for name in (
    "neg", "abs", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tanh",
    "sigmoid", "erf", "relu", "floor", "ceil", "sign", "silu", "mish", "hardsigmoid", "hardswish")}
_BINARY = {name: getattr(E, name) for name in (
    "mul", "maximum", "minimum", "lt", "le", "gt", "ge", "eq", "ne", "pow", "clamp_min", "clamp_max")}


@dataclass
class Fusion:
    gemm: torch.fx.Node  # mm(a, b) or addmm(bias, a, b)
    views: list  # ATen views from the GEMM's result to what the group reads, last first
    group: Group
    expr: E.Expr  # its vector leaves hold (FX node, "column" | "row" | "scalar" | "scalar-row")
    held_weight: bool  # b is a parameter or buffer: its conversion is kept between calls

    @property
    def operands(self):
        """(a, b, bias or None): the GEMM's operands, a [m, k] and b [k, n]."""
        if opset.op_name(self.gemm.target) == "addmm":
            return self.gemm.args[1], self.gemm.args[2], self.gemm.args[0]
        return self.gemm.args[0], self.gemm.args[1], None

    def _placeholders(self):
        """The expression with vector i of each kind read as a placeholder, and the leaves in
        that order: compiled once, bound to the tensors at each call."""
        columns, rows = self.expr.leaves("column"), self.expr.leaves("row")
        slot = {id(v): E.column(i) for i, v in enumerate(columns)}
        slot.update({id(v): E.row(i) for i, v in enumerate(rows)})
        return self.expr.replace(lambda e: slot.get(id(e.value)) if e.op in ("column", "row") else None), columns, rows

    @functools.cached_property
    def program(self):
        """The compiled program, its vectors placeholders."""
        return E.compile(self._placeholders()[0])

    def values(self, gemm_args, spec, group_args):
        """{FX node: tensor}, what :meth:`call` reads: the GEMM's operands ``gemm_args`` and the
        group's inputs ``group_args`` (in the order of its kernel's ``spec.inputs``)."""
        values = dict(zip(self.gemm.args, gemm_args))
        by_name = {n.name: n for n in self.group.inputs}
        values.update((by_name[t.name], v) for t, v in zip(spec.inputs, group_args))
        return values

    def call(self, values, cache=None):
        """The fused GEMM on ``values`` (FX node -> tensor), as the emitted forward runs it."""
        import kernelwright.ops as K  # loads the compiled extension: only where a GPU run asks for it

        a, b, bias = self.operands
        mn = tuple(meta(self.gemm).shape)
        _, columns, rows = self._placeholders()
        program = self.program.bind(columns=[_vector(values[v[0]], v[1], mn) for v in columns],
                                    rows=[_vector(values[v[0]], v[1], mn) for v in rows])
        out = K.linear(values[a], values[b].t(), values[bias] if bias is not None else None, cache=cache,
                       epilogue=program)
        return out.view(meta(self.group.outputs[0]).shape) if self.views else out

    def program_source(self, name):
        """The module-level statement that compiles the program once, as ``name``."""
        expr = self._placeholders()[0].source(repr)
        return "# %s: %s in the epilogue of %s\n%s = _E.compile(lambda y: %s)" % (
            self.group.name, ", ".join(dict.fromkeys(self.group.ops())), self.gemm.name, name, expr)

    def code(self, name_of, program_name):
        """The emitted forward's expression for the group's output."""
        a, b, bias = self.operands
        mn = tuple(meta(self.gemm).shape)
        _, columns, rows = self._placeholders()
        cache = ", cache=_kw.weight_cache(self, %r, _K.WeightCache)" % self.gemm.name if self.held_weight else ""
        bound = ", ".join("%s=[%s]" % (kind, ", ".join(_vector_source(name_of(v[0]), v[1], mn) for v in vs))
                          for kind, vs in (("columns", columns), ("rows", rows)) if vs)
        view = ".view(%r)" % (tuple(meta(self.group.outputs[0]).shape),) if self.views else ""
        return "_K.linear(%s, %s.t(), %s%s, epilogue=%s.bind(%s))%s" % (
            name_of(a), name_of(b), name_of(bias) if bias is not None else "None", cache, program_name, bound, view)


def _vector(t, kind, mn):
    if kind in ("scalar", "scalar-row"):
        return t.reshape(1).expand(mn[kind == "scalar"])
    return t.reshape(-1)


def _vector_source(name, kind, mn):
    if kind in ("scalar", "scalar-row"):
        return "%s.reshape(1).expand(%d)" % (name, mn[kind == "scalar"])
    return "%s.reshape(-1)" % name


def candidates(plan):
    """({group id: Fusion}, decisions): each pointwise group that can run in the epilogue of the
    GEMM it reads (directly, or through views ATen takes for free: a Linear on a 3-D input)."""
    found, decisions = {}, []
    owner = {m: g for g in plan.groups for m in g.nodes}
    for g in plan.groups:
        reads = [(a, _gemm_behind(a)) for a in g.inputs]
        reads = [(a, gemm) for a, gemm in reads if gemm is not None]
        if len(reads) != 1:
            continue
        read, (gemm, views) = reads[0]
        if plan.specs[g.id].template != "pointwise":
            decisions.append("%s: not in %s's epilogue (a %s kernel; the epilogue takes pointwise chains)" % (
                g.name, gemm.name, plan.specs[g.id].template))
            continue
        try:
            found[g.id] = _fusion(plan, gemm, views, read, g, owner)
        except Unsupported as why:
            decisions.append("%s: not in %s's epilogue (%s)" % (g.name, gemm.name, why))
    return found, decisions


def _gemm_behind(node):
    """(GEMM, the views from it to ``node``, last first) where ``node`` is an mm or addmm or a
    view of one, else None."""
    views = []
    while opset.kind(node) == opset.VIEW and not opset.copies(node) and node.all_input_nodes:
        views.append(node)
        node = node.all_input_nodes[0]
    if node.op == "call_function" and opset.op_name(node.target) in _GEMMS:
        return node, views
    return None


def _fusion(plan, gemm, views, read, group, owner):
    val = meta(gemm)
    if val.dtype != torch.float32 or val.dim() != 2:
        raise Unsupported("the epilogue runs on float32 GEMMs")
    if gemm.kwargs or (opset.op_name(gemm.target) == "addmm" and (
            len(gemm.args) > 3 or tuple(meta(gemm.args[0]).shape) != (val.shape[1],))):
        raise Unsupported("an addmm with scaling or a bias other than one value per column")
    moving = [v.name for v in views if opset.op_name(v.target) not in _RESHAPES]
    if moving:
        raise Unsupported("it reads the GEMM's result through %s, which reorders it" % ", ".join(moving))
    chain = [gemm] + views[::-1]  # the GEMM, then each view of it up to what the group reads
    if any(len(x.users) != 1 for x in chain[:-1]) or any(owner.get(u) is not group for u in read.users):
        raise Unsupported("the GEMM's result is read outside the group")
    out = meta(group.outputs[0]) if len(group.outputs) == 1 else None
    if out is None or tuple(out.shape) != tuple(meta(read).shape) or out.dtype != torch.float32 \
            or out.numel() != val.numel() or out.shape[-1] != val.shape[1]:
        raise Unsupported("the group's output is not one float32 tensor of the GEMM's shape")
    exprs = {read: E.result()}
    for a in group.inputs:
        if a is not read:
            exprs[a] = _leaf(a, tuple(out.shape))
    for node in group.nodes:
        exprs[node] = _translate(node, exprs, tuple(out.shape))
    expr = _scalars_to_free_slots(exprs[group.outputs[0]])
    try:
        E.compile(expr)  # registers, steps and constants fit
    except E.EpilogueError as why:
        raise Unsupported(str(why)) from why
    return Fusion(gemm, views, group, expr, anchors.held_weight(gemm.args[-1], plan.captured.params))


def _scalars_to_free_slots(expr):
    """One value (a 0-dim parameter) is read as a vector of copies: along the columns where two
    column vectors are not already read, else along the rows."""
    columns = [v for v in expr.leaves("column") if v[1] == "column"]
    scalars = [v for v in expr.leaves("column") if v[1] == "scalar"]
    along_rows = scalars[max(0, 2 - len(columns)):]
    if not along_rows:
        return expr
    moved = {id(v): E.row((v[0], "scalar-row")) for v in along_rows}
    return expr.replace(lambda e: moved.get(id(e.value)) if e.op == "column" else None)


def _kind(shape, out):
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


def _leaf(node, out):
    val = meta(node)
    if not isinstance(val, torch.Tensor) or val.dtype != torch.float32:
        raise Unsupported("%s is not a float32 tensor" % node.name)
    kind = _kind(val.shape, out)
    if kind in ("full", None):
        raise Unsupported("%s is a full-size operand" % node.name if kind else "%s does not broadcast" % node.name)
    return E.Expr(kind if kind != "scalar" else "column", (), (node, kind))


def _translate(node, exprs, out):
    name = opset.op_name(node.target)
    val = meta(node)
    if not isinstance(val, torch.Tensor) or val.dtype not in (torch.float32, torch.bool):
        raise Unsupported("%s computes in %s" % (name, getattr(val, "dtype", "no tensor")))
    kind = opset.kind(node)
    if kind == opset.VIEW:
        src = exprs.get(node.args[0])
        if name not in _RESHAPES:
            raise Unsupported("a view (%s) that reorders elements" % name)
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
    args = [exprs[a] if isinstance(a, torch.fx.Node) else a for a in node.args]
    if any(isinstance(a, torch.fx.Node) and a not in exprs for a in node.args):
        raise Unsupported("%s reads a value from outside" % name)
    try:
        return _apply(name, node, args)
    except (TypeError, KeyError, IndexError) as why:
        raise Unsupported("%s with these arguments has no epilogue op" % name) from why


def _same_broadcast(a, b, out):
    return _kind(a, out) == _kind(b, out) and _kind(a, out) is not None


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

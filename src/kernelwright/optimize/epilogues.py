"""GEMM epilogues: a pointwise group that reads a GEMM's result can run in that GEMM's epilogue
(``kernelwright.ops.linear(..., epilogue=...)``), so that the result is written once, after the
chain, instead of written, read back and written again; a rows group that ends
in one sum, mean, max, min or logsumexp over the last dim of such a chain reduces the rows in
the epilogue (``linear(..., reduce=...)``; ``epilogue_reduce``), so that the GEMM's result is
never written; the group's ops on the reduced rows, if any, run after it on those few values.

``candidates`` finds the (GEMM, group) pairs and translates each group into an epilogue
expression (``kernelwright.ops.epilogue``; ``epilogue_translate``) whose operands are the group's
other inputs, each read as a value per column or per row of the GEMM's result, or one per element
(a residual, a gate, another GEMM's result: at most two such full-size operands); a group with
more, an op the epilogue lacks, or a dtype other than float32 stays a kernel of its own, and the
decision says why. ``tune`` times
each candidate against the GEMM and the group apart, in the same run, and keeps it only where it
is correct and faster.
"""

import functools
from dataclasses import dataclass

import torch

from kernelwright.ops import epilogue as E

from . import anchors, opset
from .epilogue_reduce import row_reduction
from .epilogue_translate import RESHAPES, leaf, scalars_to_free_slots, translate
from .emitter import meta
from .ir import Group, Unsupported

_GEMMS = ("mm", "addmm")
_BATCHED_GEMMS = ("bmm", "baddbmm")
_PART_VIEWS = ("slice", "select")  # a GLU's or a GRU's chunks of one Linear's result

@dataclass
class Fusion:
    gemm: torch.fx.Node  # mm(a, b) or addmm(bias, a, b)
    views: list  # ATen views from the GEMM's result to what the group reads, last first
    group: Group
    expr: E.Expr  # its tensor leaves hold (FX node, "column" | "row" | "scalar" | "scalar-row" | "full")
    held_weight: bool  # b is a parameter or buffer: its conversion is kept between calls
    reduce: str = None  # "sum", "mean", "amax", "amin", "logsumexp": expr reduced over its last dim
    # With reduce: each output of the group as an expression of the reduced rows (result()) and
    # numbers, computed with the reduction's finish in one small kernel after the GEMM; None
    # where the reduced rows are the one output.
    after: tuple = None
    reduced: torch.fx.Node = None  # with reduce: the node whose value is the reduced rows

    @property
    def operands(self):
        """(a, b, bias or None): the GEMM's operands, a [m, k] and b [k, n]."""
        if opset.op_name(self.gemm.target) == "addmm":
            return self.gemm.args[1], self.gemm.args[2], self.gemm.args[0]
        return self.gemm.args[0], self.gemm.args[1], None

    def _placeholders(self):
        """The expression with operand i of each kind read as a placeholder, and the leaves of
        each kind (columns, rows, fulls) in that order: compiled once, bound to the tensors at
        each call."""
        leaves = [self.expr.leaves(kind) for kind in E.LEAVES]  # in the order Program.bind takes them
        slot = {id(v): make(i) for make, found in zip((E.column, E.row, E.full), leaves) for i, v in enumerate(found)}
        return (self.expr.replace(lambda e: slot.get(id(e.value)) if e.op in E.LEAVES else None),) + tuple(leaves)

    @functools.cached_property
    def program(self):
        """The compiled program, its vectors placeholders."""
        return E.compile(self._placeholders()[0])

    @functools.cached_property
    def after_programs(self):
        """``after`` compiled, each run on the reduced rows (None: the rows themselves)."""
        return [None if e.op == "result" else E.compile(e) for e in self.after or ()]

    def values(self, gemm_args, spec, group_args):
        """{FX node: tensor}, what :meth:`call` reads: the GEMM's operands ``gemm_args`` and the
        group's inputs ``group_args`` (in the order of its kernel's ``spec.inputs``)."""
        values = dict(zip(self.gemm.args, gemm_args))
        by_name = {n.name: n for n in self.group.inputs}
        values.update((by_name[t.name], v) for t, v in zip(spec.inputs, group_args))
        return values

    def call(self, values, cache=None):
        """The group's outputs (a list) from the fused GEMM on ``values`` (FX node -> tensor), as
        the emitted forward computes them."""
        import kernelwright.ops as K  # loads the compiled extension: only where a GPU run asks for it

        a, b, bias = self.operands
        mn = tuple(meta(self.gemm).shape)
        _, columns, rows, fulls = self._placeholders()
        program = self.program.bind(columns=[_vector(values[v[0]], v[1], mn) for v in columns],
                                    rows=[_vector(values[v[0]], v[1], mn) for v in rows],
                                    fulls=[values[v[0]] for v in fulls])
        out = K.linear(values[a], values[b].t(), values[bias] if bias is not None else None, cache=cache,
                       epilogue=program, reduce=self.reduce,
                       after=self.after_programs if self.after is not None else None)
        if self.after is None:
            return [out.view(meta(self.group.outputs[0]).shape)]
        return [v.view(meta(o).shape) for v, o in zip(out, self.group.outputs)]

    def build_ahead(self, gemm_args, cache=None):
        """Starts building the fused kernel a call on the GEMM's operands ``gemm_args`` will run
        (the group's vectors do not change which), in a thread: a Future to wait on before the
        fused call is timed (``kernelwright.ops._epilogue_kernels.build_ahead``)."""
        import kernelwright.ops as K
        from kernelwright.ops import _epilogue_kernels
        from kernelwright.ops._common import ext

        values = dict(zip(self.gemm.args, gemm_args))
        a, b, bias = self.operands
        m, n = meta(self.gemm).shape
        _, columns, rows, fulls = self._placeholders()
        x = values[a]
        program = self.program.bind(columns=[x.new_zeros(n)] * len(columns), rows=[x.new_zeros(m)] * len(rows),
                                    fulls=[x.new_zeros(m, n)] * len(fulls))
        return _epilogue_kernels.build_ahead(
            lambda: K.linear(x, values[b].t(), values[bias] if bias is not None else None, cache=cache,
                             epilogue=program, reduce=self.reduce), ext)

    def program_source(self, name):
        """The module-level statement that compiles the program once, as ``name``."""
        expr = self._placeholders()[0].source(repr)
        text = "# %s: %s in the epilogue of %s%s\n%s = _E.compile(lambda y: %s)" % (
            self.group.name, ", ".join(dict.fromkeys(self.group.ops())), self.gemm.name,
            ", its rows reduced there (%s)" % self.reduce if self.reduce else "", name, expr)
        for i, e in enumerate(self.after or ()):
            if e.op != "result":
                text += "\n%s = _E.compile(lambda y: %s)  # on the reduced rows" % (
                    self._after_name(name, i), e.source(repr))
        return text

    def _after_name(self, name, i):
        return "%s_after%s" % (name, i if len(self.after) > 1 else "")

    def lines(self, name_of, program_name):
        """The emitted forward's statements that compute the group's outputs."""
        a, b, bias = self.operands
        mn = tuple(meta(self.gemm).shape)
        _, columns, rows, fulls = self._placeholders()
        cache = ", cache=_kw.weight_cache(self, %r, _K.WeightCache)" % self.gemm.name if self.held_weight else ""
        bound = ", ".join("%s=[%s]" % (kind, ", ".join(_vector_source(name_of(v[0]), v[1], mn) for v in vs))
                          for kind, vs in (("columns", columns), ("rows", rows), ("fulls", fulls)) if vs)
        outputs = self.group.outputs
        reduce = ", reduce=%r" % self.reduce if self.reduce else ""
        if self.after is not None:
            # The reduced rows' programs, finished with the reduction in one kernel.
            reduce += ", after=[%s]" % ", ".join("None" if e.op == "result" else self._after_name(program_name, i)
                                                 for i, e in enumerate(self.after))
        call = "_K.linear(%s, %s.t(), %s%s, epilogue=%s.bind(%s)%s)" % (
            name_of(a), name_of(b), name_of(bias) if bias is not None else "None", cache, program_name, bound, reduce)
        if self.after is None:
            shape = tuple(meta(outputs[0]).shape)
            view = ".view(%r)" % (shape,) if shape != mn else ""
            return ["%s = %s%s" % (name_of(outputs[0]), call, view)]
        rows_name = "%s_rows" % program_name.lstrip("_")
        values = [rows_name + "[%d]" % i + ("" if tuple(meta(o).shape) == (mn[0],) else ".view(%r)" % (tuple(meta(o).shape),))
                  for i, o in enumerate(outputs)]
        return ["%s = %s" % (rows_name, call), "%s = %s" % (", ".join(name_of(o) for o in outputs), ", ".join(values))]


def _vector(t, kind, mn):
    if kind in ("scalar", "scalar-row"):
        return t.reshape(1).expand(mn[kind == "scalar"])
    return t.reshape(-1)


def _vector_source(name, kind, mn):
    if kind in ("scalar", "scalar-row"):
        return "%s.reshape(1).expand(%d)" % (name, mn[kind == "scalar"])
    return name if kind == "full" else "%s.reshape(-1)" % name


def candidates(plan):
    """({group id: Fusion}, decisions): each pointwise group that can run in the epilogue of the
    GEMM it reads (directly, or through views ATen takes for free: a Linear on a 3-D input)."""
    found, decisions = {}, []
    owner = {m: g for g in plan.groups for m in g.nodes}
    for g in plan.groups:
        reads = [(a, _gemm_behind(a)) for a in g.inputs]
        reads = [(a, gemm) for a, gemm in reads if gemm is not None]
        gemms = [gemm for _, (gemm, _) in reads]
        if len(set(gemms)) < len(gemms):  # a norm reads its statistics' input, then every element again
            parts = [a.name for a, (_, views) in reads if _parts(views)]
            decisions.append("%s: not in an epilogue (%s)" % (g.name, _reads_parts(parts) if parts else (
                "it reads GEMM results %d times: %s" % (len(reads), ", ".join(a.name for a, _ in reads)))))
            continue
        if not reads:
            why = [w for w in map(_gemm_out_of_reach, g.inputs) if w]
            if why:
                decisions.append("%s: not in an epilogue (%s)" % (g.name, why[0]))
            continue
        # Where the group reads several GEMMs' results (an LSTM's x @ W_ih + h @ W_hh, a SwiGLU's
        # silu(w1(x)) * w3(x)), one runs it in its epilogue and reads the others' results as
        # full-size operands. The fused call runs where the group did, after all of them, so any
        # may; the one computed last is tried first.
        reads.sort(key=lambda r: _position(r[1][0]), reverse=True)
        template = plan.specs[g.id].template
        if template not in ("pointwise", "rows"):
            decisions.append("%s: not in %s's epilogue (a %s kernel; the epilogue takes pointwise chains and "
                             "their rows reduced)" % (g.name, reads[0][1][0].name, template))
            continue
        tried = []
        for read, (gemm, views) in reads:
            try:
                found[g.id] = _fusion(plan, gemm, views, read, g, owner, reduced=template == "rows")
                break
            except Unsupported as why:
                tried.append("%s's epilogue (%s)" % (gemm.name, why))
        if g.id not in found:
            decisions.append("%s: not in %s" % (g.name, "; nor in ".join(tried)))
        elif tried:
            decisions.append("%s: not in %s; in %s's" % (g.name, "; nor in ".join(tried), found[g.id].gemm.name))
    return found, decisions


def _position(node):
    return list(node.graph.nodes).index(node)


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


def _parts(views):
    return [v.name for v in views if opset.op_name(v.target) in _PART_VIEWS]


def _reads_parts(names):
    return "it reads parts of one GEMM's result (%s); the epilogue writes the whole result" % ", ".join(names)


def _gemm_out_of_reach(node):
    """Why a GEMM that ``node`` reads cannot take the group in its epilogue (a batched one); None
    where ``node`` reads no GEMM."""
    while opset.kind(node) == opset.VIEW and not opset.copies(node) and node.all_input_nodes:
        node = node.all_input_nodes[0]
    if node.op != "call_function":
        return None
    name = opset.op_name(node.target)
    if name in _BATCHED_GEMMS:
        return "it reads %s, a batched GEMM; the epilogue is on mm and addmm" % node.name
    return None


def _fusion(plan, gemm, views, read, group, owner, reduced=False):
    val = meta(gemm)
    if val.dtype != torch.float32 or val.dim() != 2:
        raise Unsupported("the epilogue runs on float32 GEMMs")
    if gemm.kwargs or (opset.op_name(gemm.target) == "addmm" and (
            len(gemm.args) > 3 or tuple(meta(gemm.args[0]).shape) != (val.shape[1],))):
        raise Unsupported("an addmm with scaling or a bias other than one value per column")
    parts = _parts(views)
    if parts:
        raise Unsupported(_reads_parts(parts))
    moving = [v.name for v in views if opset.op_name(v.target) not in RESHAPES]
    if moving:
        raise Unsupported("it reads the GEMM's result through %s, which reorders it" % ", ".join(moving))
    chain = [gemm] + views[::-1]  # the GEMM, then each view of it up to what the group reads
    if any(len(x.users) != 1 for x in chain[:-1]) or any(owner.get(u) is not group for u in read.users):
        raise Unsupported("the GEMM's result is read outside the group")
    nodes, last, reduction = group.nodes, group.outputs[0], None
    if reduced:
        reduction = row_reduction(group, val.shape[1])
        nodes, last = reduction.nodes, reduction.src
    # A pointwise group ending in reshapes (a SwiGLU's product flattened for the next Linear) is
    # computed in the shape it reads, and its output viewed as the group's; a reduction's input
    # keeps its shape, whose last dim is the one reduced.
    while not reduced and last in nodes and opset.op_name(last.target) in RESHAPES and last.all_input_nodes \
            and last.all_input_nodes[0] in nodes:
        nodes = [n for n in nodes if n is not last]
        last = last.all_input_nodes[0]
    if len(group.outputs) != 1 and (reduction is None or any(
            o is not reduction.reduced and o not in reduction.after for o in group.outputs)):
        raise Unsupported("the group has more than one output" if reduction is None else
                          "the group has an output other than its reduced rows and the ops after them")
    out = meta(last)
    if tuple(out.shape) != tuple(meta(read).shape) or out.dtype != torch.float32 \
            or out.numel() != val.numel() or out.shape[-1] != val.shape[1]:
        raise Unsupported("the group's output is not one float32 tensor of the GEMM's shape"
                          if not reduced else "the reduced value is not float32 of the GEMM's shape")
    exprs = {read: E.result()}
    used = {a for node in nodes for a in node.all_input_nodes}  # before a reduction: what the epilogue reads
    for a in group.inputs:
        if a is not read and a in used:
            exprs[a] = leaf(a, tuple(out.shape))
    for node in nodes:
        exprs[node] = translate(node, exprs, tuple(out.shape))
    expr = scalars_to_free_slots(exprs[last])
    after = _after_reduction(reduction, exprs, group.outputs) if reduction is not None and reduction.after else None
    try:
        E.compile(expr)  # registers, steps and constants fit
        for e in after or ():
            E.compile(e)
    except E.EpilogueError as why:
        raise Unsupported(str(why)) from why
    return Fusion(gemm, views, group, expr, anchors.held_weight(gemm.args[-1], plan.captured.params),
                  reduction and reduction.op, after, reduction and reduction.reduced)


def _after_reduction(reduction, exprs, outputs):
    """Each of the group's ``outputs`` as an expression of the reduced rows (result()) and numbers,
    computed by the ops after the reduction: run by torch on the few values it leaves."""
    shape = tuple(meta(reduction.reduced).shape)
    held = {n: e for n, e in exprs.items() if e.op == "const"}
    held[reduction.reduced] = E.result()
    for node in reduction.after:
        if any(isinstance(a, torch.fx.Node) and a not in held for a in node.args):
            raise Unsupported("%s, after the reduction, reads a value other than the reduced rows and numbers"
                              % opset.op_name(node.target))
        held[node] = translate(node, held, shape)
    return tuple(held[o] for o in outputs)

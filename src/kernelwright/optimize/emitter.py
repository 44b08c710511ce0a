"""From graph nodes to expressions at symbolic coordinates, in either dialect.

``Emitter.value(node, coords)`` returns the name of a variable holding ``node``'s element at
``coords`` (one index expression per dimension of the node's shape), emitting the statements
that compute it. Loads of tensors from outside the group become strided reads; views become
coordinate arithmetic; pointwise ops become their ``opset`` template; a reduction of the
group becomes its accumulator, which is only legal at the row being reduced. Values whose
coordinates do not depend on the column are hoisted out of the column loops.
"""

import re

import torch

from . import dialects, indexing, opset, selects, views, window
from .digits import Digits
from .ir import TensorArg, Unsupported

_COL_VAR = re.compile(r"^c\d+$")
_NAME = re.compile(r"[A-Za-z_]\w*")


def contiguous_strides(shape):
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(strides))


def meta(node):
    val = node.meta.get("val")
    # Asked millions of times while the planner builds candidate groups (corpus 644: 9.9M
    # calls, a quarter of its planning): a value once checked is marked checked.
    if node.meta.get("kw_static_val") is val and val is not None:
        return val
    if not isinstance(val, torch.Tensor):
        raise Unsupported("%s has no tensor metadata" % node.name)
    if not all(type(s) is int for s in val.shape):
        raise Unsupported("%s has a data-dependent shape" % node.name)
    node.meta["kw_static_val"] = val
    return val


class Scope:
    """Statements of one level (the row, or one column loop) and what they have computed.
    A column loop's ``hoist`` is its row scope, where column-invariant values go."""

    def __init__(self, parent=None, hoist=None):
        self.lines, self.memo, self.parent, self.hoist = [], {}, parent, hoist

    def find(self, key):
        s = self
        while s is not None:
            if key in s.memo:
                return s.memo[key]
            s = s.parent
        return None


# Values a kernel's expression may take to build, repeats included: 989 at most among the 53
# test models counted (2026-12-02; KernelBench's were not), while a stencil iterated six times in
# one kernel (corpus 644) asked for millions, each step reading the one before at five shifted
# coordinates, and took minutes to refuse; past this the join is refused and the steps run as
# kernels of their own.
VALUE_BUDGET = 2000


class Emitter:
    def __init__(self, dialect, group_nodes):
        self.d = dialect
        self.members = set(group_nodes)
        self.inputs = {}  # node -> TensorArg, in first-use order
        self.accumulators = {}  # reduction node -> variable (set once its phase is closed)
        self.row_vars = ()
        self.counter = 0
        self.scope = Scope()
        self.in_loop = set()  # variables computed per column: whatever reads them is too
        # (coords, shape) -> (the flat index those coordinates came from, the strides of a
        # tensor of that shape laid out densely in the order the index walks): such a tensor
        # is read at that index instead of re-multiplying the coordinates (which the compiler
        # cannot fold back through the divisions that made them).
        self.flat = {}
        # The domain's own flat index ("row * cols + col" in the rows template, "i" in the
        # pointwise one), and the inputs read and outputs written at it in CUDA: what the
        # cluster-rows template holds in shared memory and the pointwise vector path stages.
        self.row_flat = None
        self.row_loads = set()
        self.row_stores = set()
        self.digits = Digits()
        # Set by the rows template in CUDA: {load key: (slot, type)} of the loads a
        # column loop makes, so that a later loop reading the same element takes it from the
        # registers the first loop left it in (KW_PUT / KW_GET, CACHED variants), and the slots
        # a later loop read back.
        self.col_cache = None
        self.col_cache_reused = set()
        self.values_left = VALUE_BUDGET

    def scan_value(self, node, coords):
        """A scan's value: only the scan template, which walks its columns in order, has one."""
        raise Unsupported("%s (a scan) outside a scan kernel" % node.name)

    def fresh(self, prefix="v"):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def _emit(self, key, expr, ctype, coords):
        """Assigns expr to a new variable in the right scope (hoisted if column-invariant)."""
        scope = self.scope
        if scope.hoist is not None and not self._per_column(coords):
            scope = scope.hoist
        found = scope.find(key)
        if found:
            return found
        var = self.fresh()
        scope.lines.append(self.d.assign(var, expr, ctype))
        scope.memo[key] = var
        if scope is self.scope and scope.hoist is not None:
            self.in_loop.add(var)
        return var

    def _per_column(self, coords):
        return any(_COL_VAR.match(t) or t in self.in_loop for c in coords for t in _NAME.findall(c))

    def index(self, expr, coords_key):
        """Index arithmetic goes through variables too, so that each is computed once."""
        if re.fullmatch(r"[A-Za-z_]\w*|\d+", expr):
            return expr
        return self._emit(("idx", expr), expr, "idx", coords_key)

    # -- values -------------------------------------------------------------------------------

    def value(self, node, coords):
        self.values_left -= 1
        if self.values_left < 0:
            raise Unsupported("it would compute more than %d values an element: ops read at shifted coordinates, "
                              "step after step (a stencil iterated), recomputed in one kernel" % VALUE_BUDGET)
        coords = tuple(coords)
        if not isinstance(node, torch.fx.Node):
            raise Unsupported("operand %r is not a node" % (node,))
        if node not in self.members:
            return self.load(node, coords)
        k = opset.kind(node)
        if k == opset.REDUCTION:
            return self.accumulator(node, coords)
        if k == opset.VIEW:
            if opset.op_name(node.target) in selects.SELECTS:
                return selects.value(self, node, coords)
            if opset.op_name(node.target) in indexing.PICKS:
                return indexing.value(self, node, coords)
            return self.value(*self.under_views(node, coords))
        if k == opset.WINDOW:
            return window.value(self, node, coords)
        if k == opset.SCAN:
            return self.scan_value(node, coords)
        ctype = opset.ctype_of(meta(node).dtype)
        if k == opset.CONSTANT:
            if opset.op_name(node.target) == "arange":
                return self._arange(node, coords, ctype)
            value = node.args[1] if opset.op_name(node.target) in ("full", "full_like") else node.args[0]
            if opset.op_name(node.target) in ("zeros_like", "ones_like"):
                value = 0 if opset.op_name(node.target) == "zeros_like" else 1
            return self.d.literal(value, ctype)
        return self.pointwise(node, coords, ctype)

    def under_views(self, node, coords):
        """(node, coordinates) that ``node`` at ``coords`` is, once the plain views this kernel
        computes are walked through (selects and picks are not plain): a tensor the kernel reads,
        or an op it computes."""
        while (node in self.members and opset.kind(node) == opset.VIEW
               and opset.op_name(node.target) not in selects.SELECTS | indexing.PICKS):
            node, coords = node.args[0], tuple(views.coords_of(self, node, coords))
        return node, coords

    def _arange(self, node, coords, ctype):
        """ATen's element i: start + i * step, in the result's type (float's for float32)."""
        args = list(node.args) if len(node.args) > 1 else [0, node.args[0]]
        start, step = args[0], args[2] if len(args) > 2 else 1
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (start, step)):
            raise Unsupported("arange with bounds computed at run time")
        i = self.d.cast(coords[0], ctype)
        expr = i if step == 1 else "%s * %s" % (i, self.d.literal(step, ctype))
        if start != 0:
            expr = "(%s + %s)" % (expr, self.d.literal(start, ctype))
        return self._emit((node, coords), dialects.rounded(expr, meta(node).dtype), ctype, coords)

    def pointwise(self, node, coords, ctype):
        name = opset.op_name(node.target)
        try:
            template, params, operands = opset.expression(node)
        except KeyError:
            raise Unsupported("no expression for %s" % name) from None
        shape = tuple(meta(node).shape)
        operand_types = [opset.ctype_of(meta(o).dtype) if isinstance(o, torch.fx.Node) else _scalar_ctype(o)
                         for o in operands]
        cast_to = opset.operand_ctype(name, ctype, operand_types)
        rendered = []
        for i, (o, t) in enumerate(zip(operands, operand_types)):
            if not opset.reads_operand(template, i):
                rendered.append("")  # copy's destination
                continue
            target = cast_to
            if name == "where":
                target = "bool" if i == 0 else ctype
            if isinstance(o, torch.fx.Node):
                expr = self.value(o, broadcast_coords(coords, shape, tuple(meta(o).shape)))
                expr = expr if t == target else self.d.cast(expr, target)
                # A half result computes in float, but ATen first casts a tensor of another type
                # (a 0-dim float32, an int64) to the half type: round it as that cast does.
                # (A Python number stays exact, as in ATen's CUDA kernels.)
                if (target != "bool" and meta(o).dtype != meta(node).dtype and opset.casts_operands_to_result(name)
                        and meta(node).dtype in (torch.float16, torch.bfloat16)):
                    expr = dialects.rounded(expr, meta(node).dtype)
                rendered.append(expr)
            else:
                rendered.append(self.d.literal(o, target))
        fields = dict(zip("abc", rendered))
        fields.update({"p%d" % i: self.d.literal(p, ctype if ctype != "bool" else "f32")
                       for i, p in enumerate(params)})
        expr = dialects.rounded(template.format(**fields), meta(node).dtype)
        return self._emit((node, coords), expr, ctype, coords)

    def _input(self, node):
        """(TensorArg, its position) of a tensor the kernel reads, registered at its first read."""
        val = meta(node)
        if node not in self.inputs:
            if val.dtype not in dialects.STORAGE_TYPES:
                raise Unsupported("%s has dtype %s" % (node.name, val.dtype))
            self.inputs[node] = TensorArg(node.name, tuple(val.shape), tuple(val.stride()), val.dtype)
        return self.inputs[node], list(self.inputs).index(node)

    def _strided_offset(self, arg, coords):
        terms = [c if st == 1 else "%s * %d" % (c, st) for c, st, s in zip(coords, arg.stride, arg.shape)
                 if c != "0" and st != 0 and s != 1]
        return self.index(" + ".join(terms) if terms else "0", coords)

    def masked_load(self, node, coords, mask, fill):
        """``node`` at ``coords`` where ``mask`` holds, else ``fill`` (a literal of its type),
        with nothing read where it does not: there the coordinates may lie outside the tensor
        (a pooling window's taps in the padding), which saves clamping them."""
        arg, i = self._input(node)
        ctype = opset.ctype_of(arg.dtype)
        span = dialects.storage_span(arg.shape, arg.stride)
        expr = self.d.masked_load("in%d" % i, self._strided_offset(arg, coords), mask, fill, ctype, span)
        return self._emit(("masked load", node, tuple(coords), mask), expr, ctype, coords)

    def load(self, node, coords):
        val = meta(node)
        arg, i = self._input(node)
        offset = self.flat_offset(coords, arg.shape, arg.stride)
        if offset is not None and self.at_row_flat(coords, arg.shape):
            self.row_loads.add(i)
            expr = self.d.row_load(i, offset, opset.ctype_of(val.dtype))
        else:
            if offset is None:
                offset = self._strided_offset(arg, coords)
            expr = self.d.load("in%d" % i, offset, opset.ctype_of(val.dtype))
        key, ctype = ("load", node, coords), opset.ctype_of(val.dtype)
        if self.col_cache is None or self.scope.hoist is None or not self._per_column(coords) or self.scope.find(key):
            return self._emit(key, expr, ctype, coords)
        slot = self.col_cache.get(key)
        if slot is not None:  # read by an earlier column loop, at the same column
            self.col_cache_reused.add(slot[0])
            return self._emit(key, "KW_GET(%d, %s)" % (slot[0], expr), ctype, coords)
        var = self._emit(key, expr, ctype, coords)
        self.col_cache[key] = (len(self.col_cache), ctype)
        self.scope.lines.append("KW_PUT(%d, %s);" % (len(self.col_cache) - 1, var))
        return var

    def at_row_flat(self, coords, shape):
        """Whether a tensor of ``shape`` at ``coords`` is addressed by the domain's own flat
        index (in CUDA; given that ``flat_offset`` found it dense there)."""
        found = self.flat.get((tuple(coords), tuple(shape)))
        return self.d.name == "cuda" and found is not None and found[0] == self.row_flat

    def flat_offset(self, coords, shape, stride):
        """The domain's flat index where ``coords`` are the domain's own coordinates and the
        tensor is laid out densely in the order the domain walks them; else None."""
        found = self.flat.get((tuple(coords), tuple(shape)))
        if found is None:
            return None
        flat, dense = found
        if not same_layout(shape, stride, dense):
            return None
        return self.index(flat, coords)

    def accumulator(self, node, coords):
        if node not in self.accumulators:
            raise Unsupported("%s is read before its reduction is complete" % node.name)
        dims, keepdim = reduction_dims(node)
        shape = tuple(meta(node.args[0]).shape)
        expected = []
        rows = iter(self.row_vars)
        for d in range(len(shape)):
            if d in dims:
                if keepdim:
                    expected.append("0")
            else:
                expected.append(next(rows))
        if not self._same_coords(coords, expected, tuple(meta(node).shape)):
            raise Unsupported("%s is used away from the row it reduces (coords %s)" % (node.name, ", ".join(coords)))
        return self.accumulators[node]

    def _same_coords(self, coords, expected, shape):
        if len(coords) == len(expected) and all(self.digits.same(c, e) for c, e in zip(coords, expected)):
            return True
        return len(coords) == len(expected) == len(shape) and all(
            self.digits.same(c, e) for c, e, s in zip(coords, expected, shape) if s != 1)

    def unflatten(self, flat, shape, coords):
        strides = contiguous_strides(shape)
        result = []
        for i, (s, st) in enumerate(zip(shape, strides)):
            if s == 1:
                result.append("0")
                continue
            e = flat if st == 1 else self.d.idiv(flat, st)
            if any(shape[j] != 1 for j in range(i)):
                e = self.d.imod(e, s)
            result.append(self.index(e, coords))
        for var, digit in zip(result, self.digits.unflattened(self.digits.of(flat), shape, strides)):
            self.digits.set(var, digit)
        return tuple(result)


def broadcast_coords(coords, shape, operand_shape):
    """ATen broadcasting: trailing dims line up; size-1 dims of the operand read index 0."""
    lead = len(shape) - len(operand_shape)
    if lead < 0:
        raise Unsupported("operand of rank %d under a result of rank %d" % (len(operand_shape), len(shape)))
    return tuple("0" if s == 1 else coords[lead + i] for i, s in enumerate(operand_shape))


def reduction_dims(node):
    """(sorted dims, keepdim) of a reduction node, whatever op spelled them."""
    name = opset.op_name(node.target)
    rank = len(meta(node.args[0]).shape)
    args, kwargs = list(node.args), node.kwargs
    if name in ("argmax", "argmin"):
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        keepdim = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
        dims = [dim] if dim is not None else list(range(rank))
        if dim is None and keepdim:
            raise Unsupported("argmax over all dims with keepdim")
    elif name == "prod":
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        keepdim = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
        dims = [dim] if dim is not None else list(range(rank))
    else:
        dims = args[1] if len(args) > 1 else kwargs.get("dim")
        if is_prims(node):  # prims reductions never keep dims; broadcast_in_dim restores them
            keepdim = False
        else:
            keepdim = args[2] if len(args) > 2 and isinstance(args[2], bool) else kwargs.get("keepdim", False)
        if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
            dims = list(range(rank))
        elif isinstance(dims, int):
            dims = [dims]
    return tuple(sorted({d % rank for d in dims})) if rank else (), bool(keepdim)


def reached(start, members, kind):
    """The nodes of ``kind`` among ``members`` that ``start`` reads through the group, not
    looking past them."""
    stack, seen, found = [start], set(), []
    while stack:
        n = stack.pop()
        if n in seen or n not in members:
            continue
        seen.add(n)
        if opset.kind(n) == kind:
            found.append(n)
            continue
        stack.extend(n.all_input_nodes)
    return found


def is_prims(node):
    return getattr(node.target, "namespace", None) == "prims"


def correction(node):
    """The divisor's correction of a var/std node (prims put it third, aten in a keyword)."""
    if is_prims(node):
        return node.args[2] if len(node.args) > 2 else 0
    c = node.kwargs.get("correction")
    if c is None:
        unbiased = node.kwargs.get("unbiased", True)
        c = 1 if unbiased else 0
    return c


def _scalar_ctype(v):
    return "bool" if isinstance(v, bool) else ("i64" if isinstance(v, int) else "f32")


def same_layout(shape, a, b):
    """Whether strides ``a`` and ``b`` address a tensor of ``shape`` alike (size-1 dims aside)."""
    return [st for s, st in zip(shape, a) if s != 1] == [st for s, st in zip(shape, b) if s != 1]

"""The expression an epilogue is written as: its nodes, leaves and the op table it compiles to
(see ``kernelwright.ops.epilogue`` for the functions that build it)."""

import math

# The order of kw::EpilogueOp: an op's index is its code.
OPS = ("copy", "neg", "abs", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos",
       "tanh", "sigmoid", "erf", "relu", "gelu", "gelu_tanh", "floor", "ceil", "sign",
       "add", "sub", "mul", "div", "maximum", "minimum", "pow", "clamp_min", "clamp_max",
       "lt", "le", "gt", "ge", "eq", "ne",
       "where", "softplus")
_CODE = {name: i for i, name in enumerate(OPS)}
REGISTERS, STEPS, CONSTS = 4, 32, 24
_COLUMN0, _ROW0, _FULL0, _CONST0 = 4, 6, 8, 10  # kw::EpilogueSource
LEAVES = ("column", "row", "full")  # the tensor leaves, in the order of their sources


class EpilogueError(ValueError):
    """An expression the epilogue cannot run (too many live values, steps or constants)."""


class Expr:
    """A node of an epilogue expression. Leaves: the GEMM's result, a constant, a column or row
    vector or a full-size operand (``value`` is the tensor, or whatever a caller substitutes
    tensors for later)."""

    __slots__ = ("op", "args", "value")

    def __init__(self, op, args=(), value=None):
        self.op, self.args, self.value = op, tuple(args), value

    def __add__(self, o): return _node("add", self, o)
    def __radd__(self, o): return _node("add", o, self)
    def __sub__(self, o): return _node("sub", self, o)
    def __rsub__(self, o): return _node("sub", o, self)
    def __mul__(self, o): return _node("mul", self, o)
    def __rmul__(self, o): return _node("mul", o, self)
    def __truediv__(self, o): return _node("div", self, o)
    def __rtruediv__(self, o): return _node("div", o, self)
    def __pow__(self, o): return _node("pow", self, o)
    def __rpow__(self, o): return _node("pow", o, self)
    def __neg__(self): return _node("neg", self)
    def __lt__(self, o): return _node("lt", self, o)
    def __le__(self, o): return _node("le", self, o)
    def __gt__(self, o): return _node("gt", self, o)
    def __ge__(self, o): return _node("ge", self, o)

    def leaves(self, kind):
        """The values of this expression's ``kind`` leaves ('column', 'row' or 'full'), first use
        first."""
        found = []
        for e in _postorder(self):
            if e.op == kind and not any(v is e.value for v in found):
                found.append(e.value)
        return found

    def replace(self, fn):
        """The same expression with each leaf ``e`` for which ``fn(e)`` is not None replaced by
        that, shared subexpressions staying shared."""
        done = {}
        for e in _postorder(self):
            new = None if e.args else fn(e)
            done[id(e)] = new if new is not None else (
                Expr(e.op, [done[id(a)] for a in e.args], e.value) if e.args else e)
        return done[id(self)]

    def source(self, name_of, result="y", module="_E"):
        """Python source that builds this expression from ``result`` with the functions of
        ``module`` (this module); ``name_of(value)`` names a vector leaf's value. A value used
        twice is named where first built (``(t0 := ...)``) and read by name after."""
        uses = {}
        for e in _postorder(self):
            for a in e.args:
                uses[id(a)] = uses.get(id(a), 0) + 1
        names = {}

        def text(e):
            if id(e) in names:
                return names[id(e)]
            if e.op == "result":
                return result
            if e.op == "const":
                return repr(e.value) if math.isfinite(e.value) else "float(%r)" % repr(e.value)
            if e.op in LEAVES:
                out = "%s.%s(%s)" % (module, e.op, name_of(e.value))
            elif e.op in _INFIX:
                out = "(%s %s %s)" % (text(e.args[0]), _INFIX[e.op], text(e.args[1]))
            elif e.op == "neg":
                out = "(-%s)" % text(e.args[0])
            elif e.op == "gelu_tanh":
                out = "%s.gelu(%s, approximate='tanh')" % (module, text(e.args[0]))
            else:
                out = "%s.%s(%s)" % (module, e.op, ", ".join(text(a) for a in e.args))
            if uses.get(id(e), 0) > 1 and e.op != "const":
                names[id(e)] = "t%d" % len(names)
                out = "(%s := %s)" % (names[id(e)], out)
            return out

        return text(self)


_INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/"}


def result():
    """The GEMM's result, bias added: where an epilogue expression starts."""
    return Expr("result")


def column(t):
    """A value per output column (shape [out_features]), read by each row; an int: a placeholder
    for the tensor given to :meth:`Program.bind`."""
    return Expr("column", (), t)


def row(t):
    """A value per output row (shape [rows], the rows of x), read across the row; an int: a
    placeholder, as for :func:`column`."""
    return Expr("row", (), t)


def full(t):
    """A value per output element (the GEMM's output shape: a residual, a gate), two such
    tensors at most; an int: a placeholder, as for :func:`column`. The kernel stages it in
    shared memory as it reads the GEMM's result; where it cannot (float32 rows 16-byte aligned,
    the output's columns unpadded), the program runs after the GEMM."""
    return Expr("full", (), t)


def _wrap(v):
    if isinstance(v, Expr):
        return v
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError("an epilogue operand must be an epilogue expression or a Python number (wrap a "
                        "tensor in column(), row() or full()), got %s" % type(v).__name__)
    return Expr("const", (), float(v))


def _node(op, *args):
    return Expr(op, [_wrap(a) for a in args])


def _postorder(root):
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        e, expanded = stack.pop()
        if id(e) in seen:
            continue
        if expanded:
            seen.add(id(e))
            order.append(e)
            continue
        stack.append((e, True))
        stack.extend((a, False) for a in reversed(e.args) if id(a) not in seen)
    return order

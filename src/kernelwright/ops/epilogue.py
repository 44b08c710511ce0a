"""Pointwise epilogues for kernelwright's GEMM, written as expressions on its result.

``linear(x, weight, bias, epilogue=lambda y: E.clamp(E.gelu(y * 2.0 + E.column(s)), -1, 1))``
runs the chain in the GEMM's epilogue: the output is written once, after the chain, and the
GEMM's own result never reaches memory. The expression is compiled into a small register
program (``kw::EpilogueProgram``, csrc/include/kw/gemm.h) that one prebuilt kernel interprets,
so a new chain costs no compilation. Operands: Python numbers, ``column(t)`` (a value per output
column, shape [out_features]: a bias, a per-feature scale) and ``row(t)`` (a value per row of
the output, shape [rows]). Where the Hopper kernels do not run (other GPUs, the CPU, float64),
the same program runs with ATen ops on the GEMM's result.
"""

import math

import torch

# The order of kw::EpilogueOp: an op's index is its code.
OPS = ("copy", "neg", "abs", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "reciprocal", "sin", "cos",
       "tanh", "sigmoid", "erf", "relu", "gelu", "gelu_tanh", "floor", "ceil", "sign",
       "add", "sub", "mul", "div", "maximum", "minimum", "pow", "clamp_min", "clamp_max",
       "lt", "le", "gt", "ge", "eq", "ne",
       "where", "softplus")
_CODE = {name: i for i, name in enumerate(OPS)}
_ARITY = dict([(n, 1) for n in OPS[:OPS.index("add")]] + [(n, 2) for n in OPS[OPS.index("add"):OPS.index("where")]]
              + [("where", 3), ("softplus", 3)])
REGISTERS, STEPS, CONSTS = 4, 32, 24
_COLUMN0, _ROW0, _CONST0 = 4, 6, 8  # kw::EpilogueSource


class EpilogueError(ValueError):
    """An expression the epilogue cannot run (too many live values, steps or constants)."""


class Expr:
    """A node of an epilogue expression. Leaves: the GEMM's result, a constant, a column or row
    vector (``value`` is the tensor, or whatever a caller substitutes tensors for later)."""

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
        """The values of this expression's ``kind`` leaves ('column' or 'row'), first use first."""
        found = []
        for e in _postorder(self):
            if e.op == kind and not any(v is e.value for v in found):
                found.append(e.value)
        return found

    def map_values(self, fn):
        """The same expression with each vector leaf's value replaced by ``fn(value)`` (once a
        value: leaves of one value stay one vector)."""
        mapped = {}

        def leaf(e):
            if id(e.value) not in mapped:
                mapped[id(e.value)] = fn(e.value)
            return Expr(e.op, (), mapped[id(e.value)])

        return self.replace(lambda e: leaf(e) if e.op in ("column", "row") else None)

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
            if e.op in ("column", "row"):
                out = "%s.%s(%s)" % (module, e.op, name_of(e.value))
            elif e.op in _INFIX:
                out = "(%s %s %s)" % (text(e.args[0]), _INFIX[e.op], text(e.args[1]))
            elif e.op == "neg":
                out = "(-%s)" % text(e.args[0])
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


def _wrap(v):
    if isinstance(v, Expr):
        return v
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError("an epilogue operand must be an epilogue expression or a Python number (wrap a "
                        "tensor in column() or row()), got %s" % type(v).__name__)
    return Expr("const", (), float(v))


def _node(op, *args):
    return Expr(op, [_wrap(a) for a in args])


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


def _canonical(root):
    """``root`` with equal subexpressions made one node (every result() leaf, a constant, a
    vector, an op on the same operands), so that each is computed once."""
    done, nodes = {}, {}
    for e in _postorder(root):
        if e.op == "const":
            key = ("const", e.value)
        elif e.op in ("column", "row"):
            key = (e.op, id(e.value))
        else:
            key = (e.op,) + tuple(id(done[id(a)]) for a in e.args)
        if key not in nodes:
            nodes[key] = Expr(e.op, [done[id(a)] for a in e.args], e.value) if e.args else e
        done[id(e)] = nodes[key]
    return done[id(root)]


def _tree_order(root):
    """The operations of ``root`` as a tree (a shared subexpression once at each use, as a copy),
    in postorder, at each node its operands needing the most registers first."""
    need = {}

    def label(e):
        if id(e) not in need:
            if not e.args:
                need[id(e)] = 0
            else:
                kids = sorted((label(a) for a in e.args), reverse=True)
                need[id(e)] = max([1] + [k + i for i, k in enumerate(kids)])
        return need[id(e)]

    order = []

    def visit(e):
        if not e.args:
            order.append(e)
            return e
        copies = {}
        for a in sorted(e.args, key=label, reverse=True):
            copies[id(a)] = copies.get(id(a)) or visit(a)
        node = Expr(e.op, [copies[id(a)] for a in e.args], e.value)
        order.append(node)
        return node

    root = visit(root)
    seen, unique = set(), []
    for e in order:  # leaves are shared: each appears once
        if id(e) not in seen:
            seen.add(id(e))
            unique.append(e)
    return unique


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


class Program:
    """An expression compiled for the epilogue: ``code`` (five ints a step: op, destination
    register, three sources), ``consts``, and the vectors its sources read.

    Compiling takes Python time on every call; a chain run many times is compiled once with
    placeholders, ``column(0)``, ``row(0)`` ..., and given its tensors at each call with
    :meth:`bind` (as the optimizer's emitted modules do)."""

    def __init__(self, code, consts, columns, rows):
        self.code, self.consts, self.columns, self.rows = code, consts, columns, rows

    @property
    def steps(self):
        return len(self.code) // 5

    def bind(self, columns=(), rows=()):
        """The program reading ``columns[i]`` where it was compiled with ``column(i)`` (and rows
        likewise)."""
        def place(held, given, kind):
            if any(type(h) is not int for h in held) or any(h >= len(given) for h in held):
                raise EpilogueError("bind(): the program reads %s vectors %r; give them as %ss=[...] in "
                                    "that order of placeholders" % (kind, held, kind))
            return [given[h] for h in held]

        return Program(self.code, self.consts, place(self.columns, list(columns), "column"),
                       place(self.rows, list(rows), "row"))


class _OutOfRegisters(EpilogueError):
    pass


def compile(expr):  # noqa: A001 (what it does)
    """``expr`` (or a function of the GEMM's result that returns one) as a Program: its values
    in registers, each freed after its last use. Each
    distinct subexpression is computed once; where that keeps more values live than there are
    registers, shared subexpressions are computed again at each use instead, each operation's
    operands in the order that needs the fewest registers (Sethi-Ullman)."""
    expr = _canonical(_wrap(expr(result()) if callable(expr) else expr))
    try:
        return _compile(expr, _postorder(expr))
    except _OutOfRegisters:
        return _compile(expr, _tree_order(expr))


def _compile(expr, order):
    columns, rows = expr.leaves("column"), expr.leaves("row")
    for kind, found in (("column", columns), ("row", rows)):
        if len(found) > 2:
            raise EpilogueError("an epilogue reads at most two %s vectors, this one reads %d" % (kind, len(found)))
    consts = []
    last_use = {}
    for i, e in enumerate(order):
        for a in e.args:
            last_use[id(a)] = i
    where_is = {}  # id(expr) -> source index
    free = list(range(REGISTERS))
    code = []

    def source(e):
        if e.op == "const":
            if e.value not in consts:
                if len(consts) == CONSTS:
                    raise EpilogueError("an epilogue holds at most %d distinct constants" % CONSTS)
                consts.append(e.value)
            return _CONST0 + consts.index(e.value)
        if e.op == "column":
            return _COLUMN0 + next(j for j, v in enumerate(columns) if v is e.value)
        if e.op == "row":
            return _ROW0 + next(j for j, v in enumerate(rows) if v is e.value)
        return where_is[id(e)]

    if any(e.op == "result" for e in order):
        where_is[id(next(e for e in order if e.op == "result"))] = free.pop(0)
    for i, e in enumerate(order):
        if e.op in ("result", "const", "column", "row"):
            continue
        srcs = [source(a) for a in e.args]
        for a in set(e.args):  # operands read for the last time here: their registers are free
            if last_use.get(id(a)) == i and id(a) in where_is and where_is[id(a)] < REGISTERS:
                free.append(where_is.pop(id(a)))
                free.sort()
        if not free:
            raise _OutOfRegisters("the epilogue needs more than %d values live at once" % REGISTERS)
        dst = free.pop(0)
        where_is[id(e)] = dst
        code += [_CODE[e.op], dst] + (srcs + [0, 0])[:3]
    final = source(order[-1])
    if final != 0:  # the output is register 0
        code += [_CODE["copy"], 0, final, 0, 0]
    if len(code) // 5 > STEPS:
        raise EpilogueError("the epilogue takes %d steps, at most %d fit" % (len(code) // 5, STEPS))
    return Program(code, consts, columns, rows)


_TORCH = {
    "copy": lambda a, b, c: a, "neg": lambda a, b, c: -a, "abs": lambda a, b, c: a.abs(),
    "exp": lambda a, b, c: a.exp(), "expm1": lambda a, b, c: a.expm1(), "log": lambda a, b, c: a.log(),
    "log1p": lambda a, b, c: a.log1p(), "sqrt": lambda a, b, c: a.sqrt(), "rsqrt": lambda a, b, c: a.rsqrt(),
    "reciprocal": lambda a, b, c: a.reciprocal(), "sin": lambda a, b, c: a.sin(), "cos": lambda a, b, c: a.cos(),
    "tanh": lambda a, b, c: a.tanh(), "sigmoid": lambda a, b, c: a.sigmoid(), "erf": lambda a, b, c: a.erf(),
    "relu": lambda a, b, c: a.relu(), "gelu": lambda a, b, c: torch.nn.functional.gelu(a),
    "gelu_tanh": lambda a, b, c: torch.nn.functional.gelu(a, approximate="tanh"),
    "floor": lambda a, b, c: a.floor(), "ceil": lambda a, b, c: a.ceil(), "sign": lambda a, b, c: a.sign(),
    "add": lambda a, b, c: a + b, "sub": lambda a, b, c: a - b, "mul": lambda a, b, c: a * b,
    "div": lambda a, b, c: a / b, "maximum": lambda a, b, c: torch.maximum(a, b),
    "minimum": lambda a, b, c: torch.minimum(a, b), "pow": lambda a, b, c: torch.pow(a, b),
    "clamp_min": lambda a, b, c: torch.where(a < b, b, a), "clamp_max": lambda a, b, c: torch.where(a > b, b, a),
    "lt": lambda a, b, c: (a < b).to(a.dtype), "le": lambda a, b, c: (a <= b).to(a.dtype),
    "gt": lambda a, b, c: (a > b).to(a.dtype), "ge": lambda a, b, c: (a >= b).to(a.dtype),
    "eq": lambda a, b, c: (a == b).to(a.dtype), "ne": lambda a, b, c: (a != b).to(a.dtype),
    "where": lambda a, b, c: torch.where(a != 0, b, c),
    "softplus": lambda a, b, c: torch.where(a * b > c, a, torch.log1p(torch.exp(a * b)) / b),
}


def evaluate(code, consts, z, columns, rows):
    """The program run with torch ops on z [m, n] in z's dtype (differentiable): the twin of the
    kernel's interpreter that autograd goes through."""
    def scalar(v):
        return torch.tensor(v, dtype=z.dtype, device=z.device)

    regs = [z] + [scalar(0.0)] * (REGISTERS - 1)
    vectors = [c.to(z.dtype).view(1, -1) for c in columns] + [scalar(0.0)] * (2 - len(columns))
    vectors += [r.to(z.dtype).view(-1, 1) for r in rows] + [scalar(0.0)] * (2 - len(rows))
    # Constants as the kernel reads them: float32.
    constants = [scalar(float(torch.tensor(v, dtype=torch.float32))) for v in consts]

    def fetch(src):
        if src < _COLUMN0:
            return regs[src]
        if src < _CONST0:
            return vectors[src - _COLUMN0]
        return constants[src - _CONST0]

    for s in range(0, len(code), 5):
        op, dst, a, b, c = code[s:s + 5]
        regs[dst] = _TORCH[OPS[op]](fetch(a), fetch(b), fetch(c))
    return regs[0].expand(z.shape)

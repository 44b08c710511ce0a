"""An epilogue expression compiled to the register program the GEMM's epilogue interprets
(``kw::EpilogueProgram``), and the program's torch twin."""

import torch

from kernelwright.ops._epilogue_expr import (_CODE, _COLUMN0, _CONST0, _FULL0, _ROW0, CONSTS, LEAVES, OPS,
                                             REGISTERS, STEPS, EpilogueError, Expr, _postorder, _wrap, result)


class Program:
    """An expression compiled for the epilogue: ``code`` (five ints a step: op, destination
    register, three sources), ``consts``, and the vectors and full-size operands its sources read.

    Compiling takes Python time on every call; a chain run many times is compiled once with
    placeholders, ``column(0)``, ``row(0)``, ``full(0)`` ..., and given its tensors at each call
    with :meth:`bind` (as the optimizer's emitted modules do)."""

    def __init__(self, code, consts, columns, rows, fulls=()):
        self.code, self.consts, self.columns, self.rows, self.fulls = code, consts, columns, rows, list(fulls)

    @property
    def steps(self):
        return len(self.code) // 5

    def bind(self, columns=(), rows=(), fulls=()):
        """The program reading ``columns[i]`` where it was compiled with ``column(i)`` (and rows
        and full-size operands likewise)."""
        def place(held, given, kind):
            if any(type(h) is not int for h in held) or any(h >= len(given) for h in held):
                raise EpilogueError("bind(): the program reads %s vectors %r; give them as %ss=[...] in "
                                    "that order of placeholders" % (kind, held, kind))
            return [given[h] for h in held]

        return Program(self.code, self.consts, place(self.columns, list(columns), "column"),
                       place(self.rows, list(rows), "row"), place(self.fulls, list(fulls), "full"))

    def apply(self, z):
        """The program run on ``z`` [m, n] with torch ops (its twin, as where no kernel runs it),
        reading the vectors it holds: for a value no GEMM computes, such as the rows a GEMM's
        epilogue reduced."""
        return evaluate(self.code, self.consts, z, list(self.columns), list(self.rows), list(self.fulls))


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
    columns, rows, fulls = (expr.leaves(kind) for kind in LEAVES)
    for kind, found in (("column vectors", columns), ("row vectors", rows), ("full-size operands", fulls)):
        if len(found) > 2:
            raise EpilogueError("an epilogue reads at most two %s, this one reads %d" % (kind, len(found)))
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
        if e.op == "full":
            return _FULL0 + next(j for j, v in enumerate(fulls) if v is e.value)
        return where_is[id(e)]

    if any(e.op == "result" for e in order):
        where_is[id(next(e for e in order if e.op == "result"))] = free.pop(0)
    for i, e in enumerate(order):
        if e.op in ("result", "const") + LEAVES:
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
    return Program(code, consts, columns, rows, fulls)


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


def evaluate(code, consts, z, columns, rows, fulls=()):
    """The program run with torch ops on z [m, n] in z's dtype (differentiable): the twin of the
    kernel's interpreter that autograd goes through; each of ``fulls`` has z's elements."""
    # Numbers are filled in on z's device: a tensor made from a host number there waits for the
    # work queued before it (a GEMM whose reduced rows z is), and each op after would wait too.
    zero = z.new_zeros(())
    regs = [z] + [zero] * (REGISTERS - 1)
    vectors = [c.to(z.dtype).view(1, -1) for c in columns] + [zero] * (2 - len(columns))
    vectors += [r.to(z.dtype).view(-1, 1) for r in rows] + [zero] * (2 - len(rows))
    vectors += [f.to(z.dtype).reshape(z.shape) for f in fulls] + [zero] * (2 - len(fulls))
    # Constants as the kernel reads them: float32.
    constants = [z.new_full((), float(torch.tensor(v, dtype=torch.float32))) for v in consts]

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


def _canonical(root):
    """``root`` with equal subexpressions made one node (every result() leaf, a constant, a
    vector, an op on the same operands), so that each is computed once."""
    done, nodes = {}, {}
    for e in _postorder(root):
        if e.op == "const":
            key = ("const", e.value)
        elif e.op in LEAVES:
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

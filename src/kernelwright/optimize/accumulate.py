"""A reduction's accumulator in the generated kernels: its type, initial value and combining
op, the reduction across a block's threads, the column loop that feeds it, and the expression
that finishes the row's result from it. Shared by the rows, split-rows and cluster templates.
"""

import math
from dataclasses import dataclass

from . import dialects, opset
from .emitter import correction, meta

_COMBINE = {"sum": "kw_add_op", "mean": "kw_add_op", "var": "kw_add_op", "std": "kw_add_op",
            "mean_of": "kw_add_op", "sumsq_of": "kw_add_op", "prod": "kw_mul_op", "amax": "kw_max_op",
            "amin": "kw_min_op"}
_INIT = {"sum": 0, "mean": 0, "var": 0, "std": 0, "mean_of": 0, "sumsq_of": 0, "prod": 1,
         "amax": float("-inf"), "amin": float("inf"), "argmax": float("-inf"), "argmin": float("inf")}
_TORCH_REDUCE = {"kw_add_op": "sum", "kw_mul_op": "prod", "kw_max_op": "amax", "kw_min_op": "amin"}
# Every integer type computes in int64: its bounds stand in for the infinities.
_BOUNDS = {"i64": (-2 ** 63, 2 ** 63 - 1), "bool": (False, True)}
_SMEM = {"f32": "kw_smem_f", "f64": "kw_smem_d", "i64": "kw_smem_i"}

@dataclass
class Reduce:
    """One accumulator of a column loop. ``op`` is the ATen reduction, or ``mean_of`` for the
    mean that a var/std subtracts first, or ``sumsq_of`` for the sum of squares that a one-loop
    var/std (``one_loop_variance``) takes its result from."""

    node: object
    op: str
    ctype: str
    value: str = ""
    acc: str = ""
    partner: "Reduce" = None  # on an amax: the sum of exponentials sharing its loop (``online``)
    online_of: "Reduce" = None  # on that sum: the amax


_SUMMING = ("sum", "mean", "var", "std", "prod")


def one_loop_variance(node):
    """Whether a var/std reads its row once, from the sum and the sum of squares in double of
    its values less the row's first (kernels._shifted): their difference loses about
    ((mean - first) / std)^2 <= n of double's precision, less than float32's own rounding for
    rows of fewer than 2^29 values, so for float32 and narrower values it is as accurate as two
    loops (the mean first, then the squared deviations)."""
    return acc_ctype(node, "mean_of") == "f64" and opset.ctype_of(meta(node.args[0]).dtype) != "f64"


def acc_ctype(node, op=None):
    """The accumulator's type. Float sums accumulate in double: a thread adds up to
    columns/THREADS values in sequence, whose float error grows with the row (a 250k-long row
    gave 572x float32's rounding on an H100); in a memory-bound loop the double adds should
    hide behind the loads (not timed apart)."""
    op = op or opset.op_name(node.target)
    src = meta(node.args[0]).dtype
    if op in ("argmax", "argmin"):
        return opset.ctype_of(src)
    ctype = opset.ctype_of(meta(node).dtype)
    if ctype == "bool":  # any/all as amax/amin: the block reduces through 64-bit shared memory
        return "i64"
    return "f64" if ctype == "f32" and op in _SUMMING + ("mean_of",) else ctype


def finish(p, cols, d, mean=None):
    """The row's result from the reduced accumulator ``p.acc`` (``mean``: the row's mean, for
    a one-loop variance)."""
    lit = lambda v: d.literal(v, p.ctype)  # noqa: E731
    if p.op in ("mean", "mean_of"):
        return "%s / %s" % (p.acc, lit(cols))
    if p.op in ("var", "std", "sumsq_of"):
        squares = p.acc
        if p.op == "sumsq_of":
            # Rounding can leave a constant row's difference a hair below zero.
            squares = "kw_maximum(%s - %s * %s * %s, %s)" % (p.acc, mean, mean, lit(cols), lit(0))
        divisor = "%s / %s" % (d.paren(squares), lit(max(cols - correction(p.node), 0)))
        return "kw_sqrt(%s)" % divisor if opset.op_name(p.node.target) == "std" else divisor
    if p.op in ("argmax", "argmin"):
        return p.acc + "_i"
    return p.acc


def init_literal(p, d):
    value = _INIT[p.op]
    if math.isinf(value) and p.ctype in _BOUNDS:  # integers and bools have no infinity
        value = _BOUNDS[p.ctype][value > 0]
    return d.literal(value, p.ctype)


def is_arg(p):
    return p.op in ("argmax", "argmin")


def combine_op(p):
    return _COMBINE[p.op]


def torch_reduce_method(p):
    return _TORCH_REDUCE[_COMBINE[p.op]]


def smem_name(ctype):
    return _SMEM[ctype if ctype != "bool" else "i64"]


def block_reduce(p, across=None):
    """The statements that reduce accumulator ``p`` over the THREADS threads of its row, every
    thread getting the result. ``across``: the name of the kernel's flag for a row's threads
    lying along threadIdx.y (the rows template's ROWS_ACROSS_LANES)."""
    last = "THREADS" if across is None else "THREADS, %s" % across
    if p.online_of:
        return []  # with its amax
    if p.partner:
        return ["kw_online_reduce(%s, %s_r, %s, %s, %s, %s);" % (
            p.acc, p.acc, p.partner.acc, smem_name(p.ctype), smem_name(p.partner.ctype), last)]
    if is_arg(p):
        return ["kw_reduce_arg(%s, %s_i, %s, %s, kw_smem_idx, %s);" % (
            p.acc, p.acc, "true" if p.op == "argmax" else "false", smem_name(p.ctype), last)]
    return ["%s = kw_reduce_rows(%s, %s(), %s, %s);" % (p.acc, p.acc, combine_op(p), smem_name(p.ctype), last)]


def cuda_column_loop(loop, index, start, end):
    """A column loop over [start, end) with THREADS threads of a row, each thread's share
    accumulated in its registers (the block's reduction comes after)."""
    return column_declarations(loop) + column_for(loop, index, start, end)


def column_for(loop, index, start, end, unroll=None, cached=False):
    """The loop of ``cuda_column_loop`` without its accumulators' declarations; ``unroll``: a
    factor for the compiler. ``cached``: the rows template's loop whose CACHED variants count
    a thread's columns with ``kw_j`` (KW_TRIPS of them, fully unrolled), so that the values
    KW_PUT keeps per column are registers."""
    plain = (["#pragma unroll %d" % unroll] if unroll else []) + [
        "for (%s col = %s; col < %s; col += THREADS) {%s" % (index, start, end, " {" if cached else "")]
    if cached:
        plain = ["#if defined(CACHED) && CACHED", "#pragma unroll",
                 "for (int kw_j = 0; kw_j < KW_TRIPS; ++kw_j) { const %s col = %s + kw_j * THREADS; if (col < %s) {"
                 % (index, start, end), "#else"] + plain + ["#endif"]
    return plain + ["  " + line for line in column_body(loop)] + ["} }" if cached else "}"]


def column_declarations(loop):
    """The accumulators of a column loop, declared (and initialised) before it."""
    out = []
    for p in loop.reduces:
        out.append("%s %s = %s;" % (dialects.CUDA_TYPES[p.ctype], p.acc, init_literal(p, dialects.Cuda())))
        if p.partner:  # the reference its partner's sum is kept relative to (online.py)
            out.append("%s %s_r = %s;" % (dialects.CUDA_TYPES[p.ctype], p.acc, init_literal(p, dialects.Cuda())))
        if is_arg(p):
            out.append("long long %s_i = 0x7fffffffffffffffLL;" % p.acc)
    return out


def column_body(loop):
    """One column's work, at column ``col``: its values, the accumulators' updates, its stores."""
    out = list(loop.lines)
    for p in loop.reduces:
        if p.partner:
            continue  # updated with its partner's sum, below
        if p.online_of:
            out.append("kw_online_add(%s, %s, %s_r, %s);" % (p.online_of.value, p.online_of.acc, p.online_of.acc, p.acc))
        elif is_arg(p):
            out.append("kw_argbest(%s, %s_i, %s, (long long)col, %s);" % (
                p.acc, p.acc, p.value, "true" if p.op == "argmax" else "false"))
        else:
            out.append("%s = %s()(%s, %s);" % (p.acc, combine_op(p), p.acc, p.value))
    if loop.stores:
        out.append("if (row_ok) {")
        out += ["  " + s for s in loop.stores]
        out.append("}")
    return out

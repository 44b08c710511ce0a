"""The row reduction a GEMM's epilogue can take from a rows group: one sum, mean, max or min over
the GEMM's columns, or a logsumexp (its max and its sum of exponentials, which the epilogue
keeps as one running pair, ``linear(..., reduce="logsumexp")``). The group splits into the
chain before the reduction (run in the epilogue on each element), the reduction, and the ops
after it on the reduced rows."""

from dataclasses import dataclass

import torch

from . import online, opset
from .emitter import meta, reduction_dims
from .epilogue_translate import RESHAPES
from .ir import Unsupported

_SINGLE = ("sum", "mean", "amax", "amin")

# m's where a logsumexp's shift must be m itself, and where it must be finite (so that
# log(sum(exp(x - t))) + t is logsumexp(x), as the epilogue computes it, on every row).
_FINITE = (-3.5, 0.0, 2.25, 88.0)
_INFINITE = (float("-inf"), float("inf"))


@dataclass
class RowReduction:
    op: str  # "sum", "mean", "amax", "amin" or "logsumexp"
    src: torch.fx.Node  # the value reduced: the chain's last node, or what the group reads
    reduced: torch.fx.Node  # the node whose value is the reduced rows
    nodes: list  # the group's nodes before the reduction (the chain), in order
    after: list  # the group's nodes on the reduced rows, in order


def row_reduction(group, n):
    """The RowReduction of a rows group whose reduction runs over the last dim of a value with
    ``n`` columns, read by nothing else; else Unsupported saying why."""
    reductions = [m for m in group.nodes if opset.kind(m) == opset.REDUCTION]
    if len(reductions) == 1:
        op, src, reduced, middle = _single(reductions[0], n)
    elif len(reductions) == 2:
        op, src, reduced, middle = _logsumexp(group, reductions, n)
    else:
        raise Unsupported("the group reduces %d times" % len(reductions))
    members = set(group.nodes)
    before, after = _ancestors(src, members), _descendants(reduced, members) - {reduced}
    rest = [m.name for m in group.nodes if m not in before and m not in after and m not in middle]
    if rest:
        raise Unsupported("%s read the rows besides their reduction" % ", ".join(rest))
    return RowReduction(op, src, reduced, [m for m in group.nodes if m in before],
                        [m for m in group.nodes if m in after])


def _single(out, n):
    name = opset.op_name(out.target)
    if name not in _SINGLE:
        raise Unsupported("%s is not a reduction the epilogue does" % name)
    if (len(out.args) > 3 and out.args[3] is not None) or out.kwargs.get("dtype") is not None:
        raise Unsupported("%s converts its result" % out.name)
    src = _over_columns(out, n)
    if any(u is not out for u in src.users):
        raise Unsupported("the value %s reduces is read outside the reduction" % out.name)
    return name, src, out, {out}


def _over_columns(out, n):
    """What ``out`` reduces, where it reduces the last dim alone and that dim has ``n`` values."""
    src = out.args[0]
    if not isinstance(src, torch.fx.Node):
        raise Unsupported("%s reduces a number" % out.name)
    if reduction_dims(out)[0] != (meta(src).dim() - 1,) or meta(src).shape[-1] != n:
        raise Unsupported("%s reduces other dims than the GEMM's columns" % out.name)
    return src


def _logsumexp(group, reductions, n):
    """A max and a sum of exponentials shifted by it, ending in log(sum) + shift: logsumexp."""
    members = set(group.nodes)
    pairs = online.pairs(reductions, members)
    if len(pairs) != 1:
        raise Unsupported("the group reduces 2 times, not as a logsumexp (a row's max, then its sum of "
                          "exponentials)")
    (total, top), = pairs.items()
    src = _over_columns(top, n)
    _over_columns(total, n)
    shifted = total.args[0].args[0]  # sum(exp(src - shift))
    shift = online.shift_of(total)
    if set(src.users) != {top, shifted}:
        raise Unsupported("the value %s reduces is read outside the reduction" % top.name)
    log = _only_user(total, "log", members)
    lse = _only_user(log, "add", members) if log is not None else None
    added = [a for a in lse.args if a is not log] if lse is not None and not lse.kwargs else []
    reshaped = _reshapes_of(added[0], shift, members) if len(added) == 1 else None
    if reshaped is None:
        raise Unsupported("the group reduces 2 times, and its sum of exponentials %s is read other than as "
                          "log(sum) + its shift (a logsumexp)" % total.name)
    between = _ancestors(shift, members) & _descendants(top, members)
    _check_shift(top, shift, between)
    return "logsumexp", src, lse, between | reshaped | {top, shifted, total.args[0], total, log, lse}


def _reshapes_of(node, shift, members):
    """The member views from ``shift`` to ``node`` that keep its values as they are (a dim kept
    by the max and dropped by the sum), where ``node`` is ``shift`` or such a view of it; else
    None."""
    views = set()
    while node is not shift:
        if not isinstance(node, torch.fx.Node) or node not in members or opset.op_name(node.target) not in RESHAPES:
            return None
        views.add(node)
        node = node.args[0]
    return views


def _only_user(node, name, members):
    users = list(node.users)
    if len(users) == 1 and users[0] in members and opset.op_name(users[0].target) == name:
        return users[0]
    return None


def _check_shift(top, shift, between):
    """The shift must be the row's max where it is finite and finite where it is not, as
    torch.logsumexp's is: then log(sum(exp(x - shift))) + shift is the logsumexp the epilogue
    computes on every row. Checked by running the ops from the max to the shift on maxes of
    each such value, in the max's shape."""
    position = {m: i for i, m in enumerate(top.graph.nodes)}
    order = sorted(between - {top}, key=position.get)
    for v in _FINITE + _INFINITE:
        values = {top: torch.full(tuple(meta(top).shape), v)}
        try:
            for m in order:
                args, kwargs = torch.fx.node.map_arg((m.args, m.kwargs), lambda a: _value(a, values, shift))
                values[m] = m.target(*args, **kwargs)
        except (RuntimeError, TypeError, ValueError, IndexError) as error:
            raise Unsupported("the shift %s of the sum of exponentials could not be run on the row's max (%s)"
                              % (shift.name, str(error).splitlines()[0])) from error
        got = values[shift]
        if not (bool((got == v).all()) if abs(v) != float("inf") else bool(got.isfinite().all())):
            raise Unsupported("the shift %s of the sum of exponentials is not the row's max where it is finite "
                              "(and finite where it is not), as a logsumexp's" % shift.name)


def _value(a, values, shift):
    if a in values:
        return values[a]
    if a.op == "call_function" and opset.op_name(a.target) == "scalar_tensor" and not a.all_input_nodes:
        return a.target(*a.args, **dict(a.kwargs, device="cpu"))
    raise Unsupported("the shift %s reads %s, which is not the row's max or a number" % (shift.name, a.name))


def _ancestors(node, members):
    """``node`` and the members it reads, through members."""
    found, stack = set(), [node]
    while stack:
        m = stack.pop()
        if m in members and m not in found:
            found.add(m)
            stack.extend(m.all_input_nodes)
    return found


def _descendants(node, members):
    """``node`` and the members that read it, through members."""
    found, stack = set(), [node]
    while stack:
        m = stack.pop()
        if m not in found and (m is node or m in members):
            found.add(m)
            stack.extend(m.users)
    return found

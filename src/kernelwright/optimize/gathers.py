"""Gathers moved ahead of the pointwise ops they pick from.

``gather(f(a, s), dim, index)`` equals ``f(gather(a, dim, index), s)`` for a pointwise ``f``, an
operand ``a`` of the result's shape and an operand ``s`` that broadcasts along ``dim``: the same
values, computed by the same ops, only where the index picks them. A loss that picks one logit a
row out of a log-softmax (cross entropy, NLL over ``log_softmax``) then reads the logits once for
the row statistics and picks its logits from the input, instead of writing the whole log-softmax
for the gather to read back. The move is taken where the index picks at most half of the result's
elements, so the ops it repeats on the picked values cost less than the tensor they no longer
write.
"""

import torch

from . import opset

aten = torch.ops.aten


def sink_gathers(gm):
    """Moves every gather of ``gm`` that can be moved ahead of the pointwise op it reads, again
    until none can, and drops what the moves left unused. Marks each gather it makes
    ``kw_gather_sunk`` (the planner's explanation says so)."""
    work = [n for n in gm.graph.nodes if n.op == "call_function" and n.target is aten.gather.default]
    moved = False
    while work:
        node = work.pop()
        if node.graph is None or not _movable(node):
            continue
        work.extend(_move(gm, node))
        moved = True
    if moved:
        gm.graph.eliminate_dead_code()
        gm.recompile()


def _movable(node):
    src, dim, index = node.args[:3]
    if node.kwargs.get("sparse_grad") or len(node.args) > 3:
        return False
    if not isinstance(src, torch.fx.Node) or opset.kind(src) != opset.POINTWISE:
        return False
    out, idx = src.meta["val"], index.meta.get("val")
    if not isinstance(idx, torch.Tensor) or out.dim() == 0 or idx.dim() != out.dim():
        return False
    dim %= out.dim()
    if any(idx.shape[d] != out.shape[d] for d in range(out.dim()) if d != dim):
        return False
    if 2 * idx.numel() > out.numel():
        return False
    return all(_role(a, out, dim) is not None for a in _tensor_args(src))


def _tensor_args(node):
    return [a for a in node.args if isinstance(a, torch.fx.Node) and isinstance(a.meta.get("val"), torch.Tensor)]


def _role(arg, out, dim):
    """'pick' for an operand of the result's shape (gathered), 'keep' for one that broadcasts
    along ``dim`` (used as it is), None for one that broadcasts another way."""
    shape = arg.meta["val"].shape
    if tuple(shape) == tuple(out.shape):
        return "pick"
    lead = out.dim() - len(shape)
    if dim < lead or shape[dim - lead] == 1:
        return "keep"
    return None


def _move(gm, node):
    """Replaces ``node`` with the pointwise op on gathered operands; returns the new gathers."""
    src, dim, index = node.args[:3]
    out = src.meta["val"]
    dim %= out.dim()
    made, args = [], []
    with gm.graph.inserting_before(node):
        for a in src.args:
            if isinstance(a, torch.fx.Node) and a in _tensor_args(src) and _role(a, out, dim) == "pick":
                picked = gm.graph.call_function(aten.gather.default, (a, dim, index))
                picked.meta.update(node.meta, val=aten.gather.default(a.meta["val"], dim, index.meta["val"]),
                                   kw_gather_sunk=True)
                made.append(picked)
                a = picked
            args.append(a)
        moved = gm.graph.call_function(src.target, tuple(args), dict(src.kwargs))
    vals = [a.meta["val"] if isinstance(a, torch.fx.Node) else a for a in args]
    moved.meta.update(src.meta, val=src.target(*vals, **src.kwargs))
    node.replace_all_uses_with(moved)
    gm.graph.erase_node(node)
    return made

"""Picks (``gather``, advanced indexing) moved ahead of the pointwise ops they pick from.

``gather(f(a, s), dim, index)`` equals ``f(gather(a, dim, index), s)`` for a pointwise ``f``, an
operand ``a`` of the result's shape and an operand ``s`` that broadcasts along ``dim``: the same
values, computed by the same ops, only where the index picks them. An operand broadcast some
other way is picked from its expanded view, and ``x[i, j]`` (``index.Tensor``) picks every
operand so. A loss that picks one logit a row out of a log-softmax (cross entropy, NLL over
``log_softmax`` by ``gather`` or by ``x[arange(n), t]``) then reads the logits once for the row
statistics and picks its logits from the input, instead of writing the whole log-softmax for the
pick to read back. The move is taken where the pick keeps at most half of the result's elements,
so the ops it repeats on the picked values cost less than the tensor they no longer write.
"""

import torch

from . import opset

aten = torch.ops.aten
_PICKS = (aten.gather.default, aten.index.Tensor)


def sink_picks(gm):
    """Moves every pick of ``gm`` that can be moved ahead of the pointwise op it reads, again
    until none can, and drops what the moves left unused. Marks each pick it makes
    ``kw_pick_moved`` (the planner's explanation says so)."""
    work = [n for n in gm.graph.nodes if n.op == "call_function" and n.target in _PICKS]
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


def _static(val):
    return isinstance(val, torch.Tensor) and all(isinstance(s, int) for s in val.shape)


def _source(node):
    """What ``node`` picks from, seen through expands that change no size (``take_along_dim``
    decomposes to a gather of one)."""
    src = node.args[0]
    while (isinstance(src, torch.fx.Node) and src.target is aten.expand.default
           and tuple(src.args[0].meta["val"].shape) == tuple(src.meta["val"].shape)):
        src = src.args[0]
    return src


def _movable(node):
    src, picked = _source(node), node.meta.get("val")
    if not isinstance(src, torch.fx.Node) or opset.kind(src) != opset.POINTWISE:
        return False
    out = src.meta["val"]
    if not (_static(out) and _static(picked)) or out.dim() == 0:
        return False
    if node.target is aten.gather.default:
        if node.kwargs.get("sparse_grad") or len(node.args) > 3:
            return False
    elif any(i is not None and i.meta["val"].dtype not in (torch.int64, torch.int32) for i in node.args[1]):
        return False  # a mask picks a data-dependent count
    return 2 * picked.numel() <= out.numel()


def _tensor_args(node):
    return [a for a in node.args if isinstance(a, torch.fx.Node) and isinstance(a.meta.get("val"), torch.Tensor)]


def _kept(arg, node, out):
    """Whether operand ``arg`` is used as it is after the move: a 0-dim one, or, under a gather
    whose index spans the result on every other dim, one of size 1 along the gathered dim."""
    shape = arg.meta["val"].shape
    if len(shape) == 0:
        return True
    if node.target is not aten.gather.default:
        return False
    dim, index = node.args[1] % out.dim(), node.args[2].meta["val"]
    if any(index.shape[d] != out.shape[d] for d in range(out.dim()) if d != dim):
        return False
    lead = out.dim() - len(shape)
    return dim < lead or shape[dim - lead] == 1


def _move(gm, node):
    """Replaces ``node`` with the pointwise op on picked operands; returns the new picks."""
    src = _source(node)
    out = src.meta["val"]
    tensors = _tensor_args(src)
    made, args = [], []
    with gm.graph.inserting_before(node):
        for a in src.args:
            if a in tensors and not _kept(a, node, out):
                if tuple(a.meta["val"].shape) != tuple(out.shape):
                    full = gm.graph.call_function(aten.expand.default, (a, list(out.shape)))
                    full.meta.update(a.meta, val=a.meta["val"].expand(out.shape))
                    a = full
                picked = gm.graph.call_function(node.target, (a,) + tuple(node.args[1:]), dict(node.kwargs))
                vals = [_val(x) for x in (a,) + tuple(node.args[1:])]
                picked.meta.update(node.meta, val=node.target(*vals, **node.kwargs), kw_pick_moved=True)
                made.append(picked)
                a = picked
            args.append(a)
        moved = gm.graph.call_function(src.target, tuple(args), dict(src.kwargs))
    moved.meta.update(src.meta, val=src.target(*[_val(a) for a in args], **src.kwargs))
    node.replace_all_uses_with(moved)
    gm.graph.erase_node(node)
    return made


def _val(x):
    """An argument's traced value: a node's, each node's in a list (an index's tensors), or x."""
    if isinstance(x, torch.fx.Node):
        return x.meta["val"]
    if isinstance(x, (list, tuple)):
        return type(x)(_val(i) for i in x)
    return x

"""Copies that place each output element from one of several sources, read inside a kernel:
``cat`` (the input whose span along the dim holds the coordinate), ``constant_pad_nd`` (the
input inside its bounds, the fill value outside) and ``slice_scatter`` (what an in-place write
through a slice becomes: the written source on the slice, the base elsewhere; a write through a
select arrives decomposed, as a ``where``).

ATen writes their whole result; inside a generated kernel the element is selected where it is
needed, so a chain read through a concatenation or a padding is one kernel. Every candidate is
read and the choice is a select, as the pooling windows do (``window``): no branch, no read out
of bounds. A part of a concatenation not chosen is read at its first element, one address for
the whole warp; a padding reads its source at the clamped coordinate, next to the one read.
"""

from . import dialects, opset
from .ir import Unsupported

SELECTS = {"cat", "constant_pad_nd", "slice_scatter"}


def value(em, node, coords):
    name = opset.op_name(node.target)
    if name == "cat":
        return _cat(em, node, tuple(coords))
    if name == "slice_scatter":
        return _slice_scatter(em, node, tuple(coords))
    return _pad(em, node, tuple(coords))


def _cat(em, node, coords):
    out = node.meta["val"]
    dim = (node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)) % out.dim()
    ctype = opset.ctype_of(out.dtype)
    # torch.cat skips 1-D empty tensors of any other shape (a legacy rule) and empty spans.
    parts = [t for t in node.args[0] if t.meta["val"].numel() > 0 and t.meta["val"].dim() == out.dim()]
    if not parts:
        raise Unsupported("a concatenation of empty tensors")
    c = coords[dim]
    chosen, start = None, 0
    for k, t in enumerate(parts):
        size = t.meta["val"].shape[dim]
        local = em.index("%s - %d" % (c, start) if start else c, coords)
        at = coords[:dim] + (local,) + coords[dim + 1:]
        if len(parts) > 1:
            ok = em._emit(("cat part", node, coords, k), "kw_inside(%s, %d, %d)" % (c, start, start + size),
                          "bool", coords)
            at = tuple(x if x == "0" else em.index("kw_ipick(%s, %s)" % (ok, x), coords) for x in at)
        v = _cast(em, t, em.value(t, at), ctype)
        if chosen is None:
            chosen = v
        else:
            below = em._emit(("cat below", node, coords, k), "(%s < %d)" % (c, start), "bool", coords)
            chosen = em._emit(("cat", node, coords, k), "kw_where(%s, %s, %s)" % (below, chosen, v), ctype, coords)
        start += size
    return chosen


def _pad(em, node, coords):
    src = node.args[0]
    pad = list(node.args[1])
    fill = node.args[2] if len(node.args) > 2 else node.kwargs.get("value", 0)
    shape = tuple(src.meta["val"].shape)
    out = node.meta["val"]
    if src.meta["val"].numel() == 0:
        raise Unsupported("padding of an empty tensor")
    ctype = opset.ctype_of(out.dtype)
    at, conds = list(coords), []
    # pad holds (before, after) pairs from the last dim backwards; a negative one crops.
    for i in range(len(pad) // 2):
        d = len(shape) - 1 - i
        before = pad[2 * i]
        if before == 0 and pad[2 * i + 1] <= 0:
            continue  # every coordinate of this dim reads inside
        local = em.index("%s - %d" % (coords[d], before) if before > 0 else
                         ("%s + %d" % (coords[d], -before) if before < 0 else coords[d]), coords)
        conds.append("kw_inside(%s, 0, %d)" % (local, shape[d]))
        at[d] = em.index("kw_iclamp(%s, 0, %d)" % (local, shape[d] - 1), coords)
    v = _cast(em, src, em.value(src, tuple(at)), ctype)
    if not conds:
        return v
    inside = conds[0]
    for cnd in conds[1:]:
        inside = "kw_and(%s, %s)" % (inside, cnd)
    mask = em._emit(("pad inside", node, coords), inside, "bool", coords)
    expr = "kw_where(%s, %s, %s)" % (mask, v, em.d.literal(fill, ctype))
    return em._emit((node, coords), dialects.rounded(expr, out.dtype), ctype, coords)


def _slice_scatter(em, node, coords):
    out = node.meta["val"]
    dim = _arg(node, 2, "dim", 0) % out.dim()
    size = out.shape[dim]
    start, end = opset.slice_bounds(_arg(node, 3, "start", None), _arg(node, 4, "end", None), size)
    step = _arg(node, 5, "step", 1)
    c = coords[dim]
    inside = em._emit(("scatter range", node, coords), "kw_inside(%s, %d, %d)" % (c, start, end), "bool", coords)
    # Off the slice the source is read at its first element (one address for the warp).
    local = em.index("kw_ipick(%s, %s)" % (inside, "%s - %d" % (c, start) if start else c), coords)
    if step != 1:
        on_step = em._emit(("scatter step", node, coords), "(%s == 0)" % em.d.imod(local, step), "bool", coords)
        inside = em._emit(("scatter on", node, coords), "kw_and(%s, %s)" % (inside, on_step), "bool", coords)
        local = em.index(em.d.idiv(local, step), coords)
    ctype = opset.ctype_of(out.dtype)
    written = _cast(em, node.args[1], em.value(node.args[1], coords[:dim] + (local,) + coords[dim + 1:]), ctype)
    kept = _cast(em, node.args[0], em.value(node.args[0], coords), ctype)
    return em._emit((node, coords), "kw_where(%s, %s, %s)" % (inside, written, kept), ctype, coords)


def _arg(node, i, name, default):
    return node.args[i] if len(node.args) > i else node.kwargs.get(name, default)


def _cast(em, node, v, ctype):
    return v if opset.ctype_of(node.meta["val"].dtype) == ctype else em.d.cast(v, ctype)

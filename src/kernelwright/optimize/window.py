"""Pooling inside a generated kernel: an output element of max/avg pooling reduces the window of
its input that the pooling parameters place under it, every tap unrolled.

The window's input is any value of the group (a load, or a fused pointwise chain recomputed at
each tap), so conv -> relu -> pool -> sigmoid is one kernel after the convolution. A tap in the
padding reads nothing where the window's input is a tensor (a predicated load giving max's or
sum's identity: no clamp, no select, the taps' offsets constant apart), and where it is a
computed value, computes it at a clamped, always valid, coordinate and is masked out; where no
window reaches outside the input (no padding, no ceil mode overhang) neither is emitted.
Results follow ATen: max propagates NaN, avg divides by the window's size within the padded
input (count_include_pad), its in-bounds taps, or divisor_override.
"""

import itertools
import math

from . import dialects, interpolate, opset
from .ir import Unsupported

MAX_TAPS = 128  # unrolled: a larger window would be a loop, which this template does not emit


def value(em, node, coords):
    if opset.op_name(node.target) in opset.INTERPOLATIONS:
        return interpolate.value(em, node, coords)
    if opset.op_name(node.target) in opset.ADAPTIVE:
        return _adaptive(em, node, coords)
    w = opset.window(node)
    src = node.args[0]
    out_dtype = node.meta["val"].dtype
    if not out_dtype.is_floating_point:
        raise Unsupported("pooling of a %s tensor" % out_dtype)
    n = len(w.kernel)
    if math.prod(w.kernel) > MAX_TAPS:
        raise Unsupported("a pooling window of %d elements (at most %d are unrolled)" % (math.prod(w.kernel), MAX_TAPS))
    d, ctype = em.d, opset.ctype_of(out_dtype)
    size = tuple(src.meta["val"].shape)[-n:]
    out_size = tuple(node.meta["val"].shape)[-n:]
    lead, outer = tuple(coords[:-n]), tuple(coords[-n:])
    inside = all(p == 0 for p in w.padding) and all(
        (o - 1) * s + (k - 1) * dl <= i - 1 for o, s, k, dl, i in zip(out_size, w.stride, w.kernel, w.dilation, size))
    starts = [_affine(em, c, s, -p, coords) for c, s, p in zip(outer, w.stride, w.padding)]
    acc = d.literal(float("-inf") if w.op == "max" else 0.0, ctype)
    for tap in itertools.product(*(range(k) for k in w.kernel)):
        at = [_affine(em, s, 1, k * dl, coords) for s, k, dl in zip(starts, tap, w.dilation)]
        masked = None
        if inside:
            v = em.value(src, lead + tuple(at))
        else:
            ok = _all_inside([(a, i) for a, i in zip(at, size)])
            mask = em._emit(("window mask", node, tuple(coords), tap), ok, "bool", coords)
            tensor, at_tensor = _tensor_under(em, src, lead + tuple(at))
            if tensor is None:  # a value computed here: computed at a clamped tap, masked out
                clamped = [em.index("kw_iclamp(%s, 0, %d)" % (a, i - 1), coords) for a, i in zip(at, size)]
                v, masked = em.value(src, lead + tuple(clamped)), mask
            else:  # a tensor's element: a tap outside reads nothing and gives the op's identity
                identity = d.literal(float("-inf") if w.op == "max" else 0.0, opset.ctype_of(src.meta["val"].dtype))
                v = em.masked_load(tensor, at_tensor, mask, identity)
        if opset.ctype_of(src.meta["val"].dtype) != ctype:
            v = d.cast(v, ctype)
        step = "kw_maximum(%s, %s)" % (v, acc) if w.op == "max" else "(%s + %s)" % (acc, v)
        if masked:
            step = "kw_where(%s, %s, %s)" % (masked, step, acc)
        acc = em._emit(("window", node, tuple(coords), tap), step, ctype, coords)
    if w.op == "avg":
        acc = "(%s / %s)" % (acc, d.cast(_divisor(em, w, starts, size, inside, coords), ctype))
    return em._emit((node, tuple(coords)), dialects.rounded(acc, out_dtype), ctype, coords)


def _tensor_under(em, node, coords):
    """(tensor, its coordinates) where ``node`` at ``coords`` is an element of a tensor the
    kernel reads, through views (a pooled dim unsqueezed for 1-D pooling); (None, None) where
    it is computed."""
    node, coords = em.under_views(node, coords)
    return (None, None) if node in em.members else (node, coords)


def _affine(em, c, scale, offset, coords):
    if c == "0":
        return str(offset)
    term = c if scale == 1 else "%s * %d" % (c, scale)
    return em.index("%s %s %d" % (term, "+" if offset >= 0 else "-", abs(offset)) if offset else term, coords)


def _all_inside(bounds):
    """The condition that every coordinate lies in [0, its bound): [(coordinate, bound)]."""
    ok = "kw_inside(%s, 0, %s)" % bounds[0]
    for a, n in bounds[1:]:
        ok = "kw_and(%s, kw_inside(%s, 0, %s))" % (ok, a, n)
    return ok


def _divisor(em, w, starts, size, inside, coords):
    if w.divisor_override:
        return str(w.divisor_override)
    if inside:
        return str(math.prod(w.kernel))
    factors = []
    for s, k, p, i in zip(starts, w.kernel, w.padding, size):
        end = em.index("kw_imin(%s + %d, %d)" % (s, k, i + p), coords)
        if w.count_include_pad:
            factors.append("(%s - %s)" % (end, s))
        else:
            factors.append("(kw_imin(%s, %d) - kw_imax(%s, 0))" % (end, i, s))
    # An empty window (possible only without count_include_pad) has a zero sum: divide by 1.
    return em.index("kw_imax(%s, 1)" % " * ".join(factors), coords)


def _adaptive(em, node, coords):
    """Adaptive average pooling: along a dim of input size i and output size m, output element o
    averages input elements [floor(o * i / m), ceil((o + 1) * i / m)), ATen's windows. Their
    sizes differ by one at most: every output unrolls the largest one's taps, those past its own
    end masked out (where m divides i every window is the same and nothing is masked). The sum
    runs over the taps in ATen's order and is divided by each dim's window size in turn, as
    ATen's kernel divides."""
    src = node.args[0]
    out_dtype = node.meta["val"].dtype
    if not out_dtype.is_floating_point:
        raise Unsupported("pooling of a %s tensor" % out_dtype)
    n = opset.ADAPTIVE[opset.op_name(node.target)]
    d, ctype = em.d, opset.ctype_of(out_dtype)
    size, out_size = tuple(src.meta["val"].shape)[-n:], tuple(node.meta["val"].shape)[-n:]
    spans = [max(-(-(o + 1) * i // m) - o * i // m for o in range(m)) for i, m in zip(size, out_size)]
    if math.prod(spans) > MAX_TAPS:
        raise Unsupported("an adaptive pooling window of %d elements (at most %d are unrolled)"
                          % (math.prod(spans), MAX_TAPS))
    lead, outer = tuple(coords[:-n]), tuple(coords[-n:])
    starts = [em.index(d.idiv("%s * %d" % (c, i), m), coords) for c, i, m in zip(outer, size, out_size)]
    ends = [em.index(d.idiv("(%s + 1) * %d + %d" % (c, i, m - 1), m), coords) for c, i, m in zip(outer, size, out_size)]
    acc = d.literal(0.0, ctype)
    for tap in itertools.product(*(range(k) for k in spans)):
        at = [em.index("kw_imin(%s + %d, %d)" % (s, t, i - 1), coords) if t else s
              for s, t, i in zip(starts, tap, size)]
        v = em.value(src, lead + tuple(at))
        if opset.ctype_of(src.meta["val"].dtype) != ctype:
            v = d.cast(v, ctype)
        step = "(%s + %s)" % (acc, v)
        ragged = [(s, t, e) for s, t, e, i, m in zip(starts, tap, ends, size, out_size) if i % m and t]
        if ragged:
            ok = _all_inside([("%s + %d" % (s, t), e) for s, t, e in ragged])
            step = "kw_where(%s, %s, %s)" % (em._emit(("adaptive mask", node, tuple(coords), tap), ok, "bool", coords),
                                             step, acc)
        acc = em._emit(("adaptive", node, tuple(coords), tap), step, ctype, coords)
    for s, e, i, m in zip(starts, ends, size, out_size):
        k = d.literal(i // m, ctype) if i % m == 0 else d.cast(em.index("%s - %s" % (e, s), coords), ctype)
        acc = em._emit(("adaptive divide", node, tuple(coords), s), "%s / %s" % (acc, k), ctype, coords)
    return em._emit((node, tuple(coords)), dialects.rounded(acc, out_dtype), ctype, coords)


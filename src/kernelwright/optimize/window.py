"""Pooling inside a generated kernel: an output element of max/avg pooling reduces the window of
its input that the pooling parameters place under it, every tap unrolled.

The window's input is any value of the group (a load, or a fused pointwise chain recomputed at
each tap), so conv -> relu -> pool -> sigmoid is one kernel after the convolution. Taps that fall
in the padding read a clamped, always valid, coordinate and are masked out of the result; where
no window reaches outside the input (no padding, no ceil mode overhang) neither is emitted.
Results follow ATen: max propagates NaN, avg divides by the window's size within the padded
input (count_include_pad), its in-bounds taps, or divisor_override.
"""

import itertools
import math

from . import dialects, interpolate, opset
from .ir import Unsupported

MAX_TAPS = 128  # unrolled: a larger window would be a loop, which this template does not emit


def value(em, node, coords):
    if opset.op_name(node.target) == interpolate.BILINEAR:
        return interpolate.value(em, node, coords)
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
        if inside:
            v = em.value(src, lead + tuple(at))
        else:
            clamped = [em.index("kw_iclamp(%s, 0, %d)" % (a, i - 1), coords) for a, i in zip(at, size)]
            v = em.value(src, lead + tuple(clamped))
            ok = "kw_inside(%s, 0, %d)" % (at[0], size[0])
            for a, i in zip(at[1:], size[1:]):
                ok = "kw_and(%s, kw_inside(%s, 0, %d))" % (ok, a, i)
            mask = em._emit(("window mask", node, tuple(coords), tap), ok, "bool", coords)
        if opset.ctype_of(src.meta["val"].dtype) != ctype:
            v = d.cast(v, ctype)
        step = "kw_maximum(%s, %s)" % (v, acc) if w.op == "max" else "(%s + %s)" % (acc, v)
        if not inside:
            step = "kw_where(%s, %s, %s)" % (mask, step, acc)
        acc = em._emit(("window", node, tuple(coords), tap), step, ctype, coords)
    if w.op == "avg":
        acc = "(%s / %s)" % (acc, d.cast(_divisor(em, w, starts, size, inside, coords), ctype))
    return em._emit((node, tuple(coords)), dialects.rounded(acc, out_dtype), ctype, coords)


def _affine(em, c, scale, offset, coords):
    if c == "0":
        return str(offset)
    term = c if scale == 1 else "%s * %d" % (c, scale)
    return em.index("%s %s %d" % (term, "+" if offset >= 0 else "-", abs(offset)) if offset else term, coords)


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

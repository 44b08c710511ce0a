"""Bilinear upsampling inside a generated kernel: an output element blends the four input
elements around the point its coordinates map to, in ATen's CUDA arithmetic (the source
coordinate in the accumulation type, truncated to the element above and left of it, weights
1 - l and l, combined rows of columns), so that conv -> bilinear -> add is one kernel after the
convolution and the upsampled tensor is never written. The input is any value of the group, as
a pooling window's is.
"""

from . import dialects, emitter, opset
from .ir import Unsupported


def value(em, node, coords):
    src = node.args[0]
    out_dtype = emitter.meta(node).dtype
    if not out_dtype.is_floating_point:
        raise Unsupported("bilinear upsampling of a %s tensor" % out_dtype)
    d = em.d
    ctype = opset.ctype_of(out_dtype)  # ATen's accumulation type: float for half types
    size, out_size = tuple(emitter.meta(src).shape)[-2:], tuple(emitter.meta(node).shape)[-2:]
    lead = tuple(coords[:-2])
    if size == out_size:  # ATen copies the input
        return em.value(src, coords)
    taps = [_taps(em, node, c, i, o, s, ctype, coords)
            for c, i, o, s in zip(coords[-2:], size, out_size, _scales(node, size, out_size, ctype))]
    (h0, h1, hl0, hl1), (w0, w1, wl0, wl1) = taps

    def at(h, w):
        v = em.value(src, lead + (h, w))
        return v if opset.ctype_of(emitter.meta(src).dtype) == ctype else d.cast(v, ctype)

    expr = "%s * (%s * %s + %s * %s) + %s * (%s * %s + %s * %s)" % (
        hl0, wl0, at(h0, w0), wl1, at(h0, w1), hl1, wl0, at(h1, w0), wl1, at(h1, w1))
    return em._emit((node, tuple(coords)), dialects.rounded(expr, out_dtype), ctype, coords)


def _taps(em, node, c, size, out, scale, ctype, coords):
    """(first index, second index, its weight, the second's weight) along one dim: the source
    coordinate scale * o (align_corners) or scale * (o + 0.5) - 0.5 floored at 0, truncated."""
    d = em.d
    o = d.cast(c, ctype)
    lit = lambda v: d.literal(v, ctype)  # noqa: E731
    if _align_corners(node):
        r = "%s * %s" % (lit(scale), o)
    else:
        r = "kw_maximum(%s * (%s + %s) - %s, %s)" % (lit(scale), o, lit(0.5), lit(0.5), lit(0))
    r = em._emit(("bilinear source", node, c), r, ctype, coords)
    first = em.index("kw_imin(%s, %d)" % (d.cast(r, "i64"), size - 1), coords)
    second = em.index("kw_imin(%s + 1, %d)" % (first, size - 1), coords)
    l1 = em._emit(("bilinear weight", node, c), "%s - %s" % (r, d.cast(first, ctype)), ctype, coords)
    l0 = em._emit(("bilinear weight 0", node, c), "%s - %s" % (lit(1), l1), ctype, coords)
    return first, second, l0, l1


def _align_corners(node):
    return bool(node.args[2])


def _scales(node, sizes, out_sizes, ctype):
    """ATen's scale per dim: (size - 1) / (output - 1) with align_corners, else 1 / the factor
    the call was given, else size / output; in the accumulation type."""
    rounded = dialects.float32 if ctype == "f32" else float
    scales = []
    for i, o, f in zip(sizes, out_sizes, opset.upsample_factors(node, len(sizes))):
        if _align_corners(node):
            scales.append(rounded((i - 1) / (o - 1)) if o > 1 else 0.0)
        else:
            scales.append(rounded(1.0 / f) if f is not None and f > 0 else rounded(i / o))
    return scales

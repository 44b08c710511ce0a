"""Views inside a generated kernel: a view's element is its input's element at other
coordinates (permuted, sliced, flipped, repeated, broadcast, re-flattened), so a view costs
index arithmetic in the kernel that reads it, never a copy."""

from . import dialects, emitter, opset
from .ir import Unsupported

# Nearest-neighbour upsampling by its spatial dims: output element o reads input element
# min(floor(o * scale), size - 1), scale in float32 as ATen's CUDA kernel computes it.
NEAREST = {"upsample_nearest1d": 1, "upsample_nearest2d": 2, "upsample_nearest3d": 3}


def coords_of(em, node, coords):
    """The input's coordinates for the view's element at ``coords``."""
    name = opset.op_name(node.target)
    src_shape = tuple(emitter.meta(node.args[0]).shape)
    out_shape = tuple(emitter.meta(node).shape)
    d = em.d
    if name == "expand" or name == "broadcast_in_dim":
        if name == "broadcast_in_dim":
            kept = list(node.args[2])
            return tuple("0" if src_shape[i] == 1 and out_shape[k] != 1 else coords[k]
                         for i, k in enumerate(kept))
        return emitter.broadcast_coords(coords, out_shape, src_shape)
    if name == "permute":
        perm = [p % len(src_shape) for p in node.args[1]]
        result = [None] * len(src_shape)
        for i, p in enumerate(perm):
            result[p] = coords[i]
        return tuple(result)
    if name in ("t", "transpose"):
        a, b = (0, 1) if name == "t" else [x % len(src_shape) for x in node.args[1:3]]
        result = list(coords)
        if len(result) >= 2:
            result[a], result[b] = result[b], result[a]
        return tuple(result)
    if name == "slice":
        dim = node.args[1] % len(src_shape) if len(node.args) > 1 else 0
        start, _ = opset.slice_bounds(node.args[2] if len(node.args) > 2 else None, None, src_shape[dim])
        step = node.args[4] if len(node.args) > 4 else 1
        result = list(coords)
        result[dim] = d.paren("%s * %d + %d" % (coords[dim], step, start)) if (step, start) != (1, 0) else coords[dim]
        return tuple(result)
    if name == "flip":
        dims = {x % len(src_shape) for x in node.args[1]}
        return tuple(em.index("%d - %s" % (s - 1, c), coords) if i in dims and s > 1 else c
                     for i, (c, s) in enumerate(zip(coords, src_shape)))
    if name == "repeat":
        lead = len(out_shape) - len(src_shape)
        return tuple("0" if s == 1 else (coords[lead + i] if out_shape[lead + i] == s else
                                         em.index(d.imod(coords[lead + i], s), coords))
                     for i, s in enumerate(src_shape))
    if name == "select":
        dim, index = node.args[1] % len(src_shape), node.args[2] % src_shape[node.args[1] % len(src_shape)]
        result = list(coords)
        result.insert(dim, str(index))
        return tuple(result)
    if name == "as_strided":
        stride = tuple(node.args[2])
        offset = node.args[3] if len(node.args) > 3 else 0
        if tuple(emitter.meta(node.args[0]).stride()) != emitter.contiguous_strides(src_shape):
            raise Unsupported("as_strided of a non-contiguous value")
        used = [(c, st) for c, st in zip(coords, stride) if c != "0" and st != 0]
        terms = ["%s * %d" % (c, st) for c, st in used] + ([str(offset)] if offset else [])
        flat = em.index(" + ".join(terms) if terms else "0", coords)
        if not offset:
            em.digits.set(flat, em.digits.summed(used))
        return em.unflatten(flat, src_shape, coords)
    if name in NEAREST:
        n = NEAREST[name]
        lead = len(src_shape) - n
        scales = _nearest_scales(node, src_shape[lead:], out_shape[lead:])
        return tuple(coords[:lead]) + tuple(
            c if o == i else em.index("kw_nearest(%s, %s, %d)" % (c, d.literal(sc, "f32"), i), coords)
            for c, i, o, sc in zip(coords[lead:], src_shape[lead:], out_shape[lead:], scales))
    # view, reshape, unsqueeze, squeeze: the same elements in row-major order
    if len(src_shape) == 0:
        return ()
    if _only_unit_dims_differ(src_shape, out_shape):
        it = iter(c for c, s in zip(coords, out_shape) if s != 1)
        result = tuple("0" if s == 1 else next(it) for s in src_shape)
    else:
        used = [(c, st) for c, st, s in zip(coords, emitter.contiguous_strides(out_shape), out_shape) if s != 1 and c != "0"]
        terms = ["%s * %d" % (c, st) if st != 1 else c for c, st in used]
        flat = em.index(" + ".join(terms) if terms else "0", coords)
        em.digits.set(flat, em.digits.summed(used))
        result = em.unflatten(flat, src_shape, coords)
    # Row-major order is the same on both sides: where the view's coordinates came from a
    # flat index over a dense layout, so did these.
    found = em.flat.get((tuple(coords), out_shape))
    if found is not None and emitter.same_layout(out_shape, found[1], emitter.contiguous_strides(out_shape)):
        em.flat.setdefault((result, src_shape), (found[0], emitter.contiguous_strides(src_shape)))
    return result


def _only_unit_dims_differ(a, b):
    return [s for s in a if s != 1] == [s for s in b if s != 1]


def _nearest_scales(node, sizes, out_sizes):
    """The float32 scale per upsampled dim: 1 / the scale factor the call was given, else input
    size / output size. Where the output is the input's size or twice it, ATen's CPU kernel
    ignores a given factor (it copies, or halves the index): a factor that disagrees with the
    sizes there would make the two devices differ, and is left to ATen."""
    scales = []
    for i, o, f in zip(sizes, out_sizes, opset.upsample_factors(node, len(sizes))):
        natural = dialects.float32(i / o)
        scale = dialects.float32(1.0 / f) if f is not None and f > 0 else natural
        if o in (i, 2 * i) and scale != natural:
            raise Unsupported("nearest upsampling by a factor (%s) other than its sizes' ratio (%d to %d), where "
                              "ATen's CPU and CUDA kernels differ" % (f, i, o))
        scales.append(scale)
    return scales

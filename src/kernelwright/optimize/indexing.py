"""Reads at coordinates held in another tensor, inside a generated kernel: ``gather``,
``index_select``, ``embedding`` and advanced indexing (``index.Tensor``). The index is loaded
(or computed by the group) at the output's coordinates and becomes the source's coordinate along
the picked dim, so an embedding lookup feeding a LayerNorm, or a cross entropy's picked logit
beside its log-sum-exp, is read where the kernel needs it and never written whole.

A negative index counts from the end, as in ATen. An index out of range, which ATen reports
(an IndexError on the CPU, a device-side assert on CUDA that ends the process's use of the
GPU), reads the nearest element instead: the kernel never reads outside the source.
"""

import torch

from . import emitter, opset
from .ir import Unsupported

PICKS = {"gather", "index_select", "embedding", "index"}


def value(em, node, coords):
    name = opset.op_name(node.target)
    coords = tuple(coords)
    if name in ("gather", "index_select") and not _shape(node.args[0]):
        raise Unsupported("a pick from a 0-dim tensor")
    if name == "gather":
        src, dim, index = node.args[0], node.args[1] % len(_shape(node.args[0])), node.args[2]
        at = coords[:dim] + (_picked(em, index, coords, _shape(src)[dim], coords),) + coords[dim + 1:]
    elif name == "index_select":
        src, dim, index = node.args[0], node.args[1] % len(_shape(node.args[0])), node.args[2]
        held = coords[dim:dim + 1] if _shape(index) else ()  # a 0-dim index picks one element
        at = coords[:dim] + (_picked(em, index, held, _shape(src)[dim], coords),) + coords[dim + 1:]
    elif name == "embedding":
        src, index = node.args[0], node.args[1]
        at = (_picked(em, index, coords[:-1], _shape(src)[0], coords), coords[-1])
    else:
        src, at = node.args[0], _advanced(em, node, coords)
    v = em.value(src, at)
    src_ctype, ctype = opset.ctype_of(src.meta["val"].dtype), opset.ctype_of(node.meta["val"].dtype)
    return v if src_ctype == ctype else em.d.cast(v, ctype)


def _shape(node):
    return tuple(node.meta["val"].shape)


def _picked(em, index, index_coords, size, coords):
    """The source coordinate held in ``index`` at ``index_coords``: wrapped if negative,
    clamped into [0, size)."""
    if index.meta["val"].dtype.is_floating_point or index.meta["val"].dtype == torch.bool:
        raise Unsupported("an index of dtype %s" % index.meta["val"].dtype)
    if size == 0:
        raise Unsupported("a pick from an empty dim")
    v = em.value(index, tuple(index_coords))
    return em.index("kw_index(%s, %d)" % (v, size), coords + (v,))


def _advanced(em, node, coords):
    """src[i0, :, i2, ...]: the index tensors broadcast together; their dims replace the indexed
    ones where those are adjacent, and lead the result otherwise (ATen's rule)."""
    src, indices = node.args[0], list(node.args[1])
    shape = _shape(src)
    indices += [None] * (len(shape) - len(indices))
    picked = [d for d, t in enumerate(indices) if t is not None]
    if not picked:
        raise Unsupported("indexing without an index tensor")
    if any(indices[d].meta["val"].dtype == torch.bool for d in picked):
        raise Unsupported("indexing by a mask")
    rank = max(len(_shape(indices[d])) for d in picked)
    bshape = tuple(max(s) for s in zip(*[(1,) * (rank - len(_shape(indices[d]))) + _shape(indices[d]) for d in picked]))
    adjacent = picked == list(range(picked[0], picked[-1] + 1))
    first = picked[0] if adjacent else 0
    bcoords = coords[first:first + rank]
    rest = iter(coords[:first] + coords[first + rank:])
    at = []
    for d, t in enumerate(indices):
        if t is None:
            at.append(next(rest))
        else:
            at.append(_picked(em, t, emitter.broadcast_coords(bcoords, bshape, _shape(t)), shape[d], coords))
    return tuple(at)

"""Rewrites of a captured graph into ops the code generator fuses: each pass one form, each
leaving the graph computing what it computed.
"""

import operator

import torch

aten = torch.ops.aten

# Ops returning (values, indices) whose halves the code generator fuses when used alone: max/min
# over a dim as amax/amin and argmax/argmin (both take the first index of the extreme, NaN
# first), max pooling's values as the pooling op without indices, adaptive max pooling's as an
# amax or a max pooling where its windows are one of those. op -> a function of the op's
# (args, kwargs) giving each half's (target, args, kwargs), None where it has no such op for
# those arguments; or None where that half never has one.
_HALVES = {
    aten.max.dim: (lambda a, k: (aten.amax.default, (a[0], [a[1]], _keepdim(a, k)), {}),
                   lambda a, k: (aten.argmax.default, (a[0], a[1], _keepdim(a, k)), {})),
    aten.min.dim: (lambda a, k: (aten.amin.default, (a[0], [a[1]], _keepdim(a, k)), {}),
                   lambda a, k: (aten.argmin.default, (a[0], a[1], _keepdim(a, k)), {})),
    aten.max_pool2d_with_indices.default: (lambda a, k: (aten.max_pool2d.default, a, k), None),
    aten.max_pool3d_with_indices.default: (lambda a, k: (aten.max_pool3d.default, a, k), None),
    aten.adaptive_max_pool2d.default: (lambda a, k: _adaptive_max(a, 2), None),
    aten.adaptive_max_pool3d.default: (lambda a, k: _adaptive_max(a, 3), None),
}


def _adaptive_max(args, n):
    """Adaptive max pooling's values as an op the generator fuses, or None: an output of ones
    is the max over the pooled dims (amax, any size); one dividing the input, ATen's windows are
    max pooling's with kernel = stride = input / output. Both take NaN as ATen's does."""
    size, out = tuple(args[0].meta["val"].shape[-n:]), list(args[1])
    if not all(isinstance(m, int) and m > 0 for m in out) or not all(size):
        return None
    if all(m == 1 for m in out):
        return aten.amax.default, (args[0], list(range(-n, 0)), True), {}
    if any(i % m for i, m in zip(size, out)):
        return None
    kernel = [i // m for i, m in zip(size, out)]
    return (aten.max_pool2d.default if n == 2 else aten.max_pool3d.default), (args[0], kernel, kernel), {}

# Ops whose results are parts of one tensor (their getitems become slices and selects).
_PARTS = (aten.split_with_sizes.default, aten.split.Tensor, aten.unbind.int)


def _keepdim(args, kwargs):
    return args[2] if len(args) > 2 else kwargs.get("keepdim", False)



# any over dims, as the largest of a bool tensor: x != 0, then amax (the rows template reduces
# bools in int64). The core decompositions already make all(x) not(any(not(x))). op -> the dims
# it reduces, from its arguments.
_ANY_DIMS = {
    aten.any.default: lambda a: [],
    aten.any.dim: lambda a: [a[1]],
    aten.any.dims: lambda a: list(a[1]) if len(a) > 1 and a[1] is not None else [],
}


def rewrite(gm):
    """Every pass below, in order."""
    _drop_metadata_asserts(gm)
    _split_value_index_reductions(gm)
    _split_convolution_bias(gm)
    _parts_as_views(gm)
    _any_as_amax(gm)
    _extremes_as_amax(gm)


# max(x) and min(x) over every element: the amax and amin over all dims they are (NaN taken
# alike; both refuse an empty tensor).
_EXTREMES = {aten.max.default: aten.amax.default, aten.min.default: aten.amin.default}


def _extremes_as_amax(gm):
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target not in _EXTREMES:
            continue
        with gm.graph.inserting_before(n):
            made = gm.graph.call_function(_EXTREMES[n.target], (n.args[0], [], False))
        made.meta.update(n.meta)
        n.replace_all_uses_with(made)
        gm.graph.erase_node(n)
    gm.recompile()


def _any_as_amax(gm):
    """``any`` as ``amax`` of ``x != 0``, where the dims it reduces hold elements (amax refuses
    an empty reduction, where any is False)."""
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target not in _ANY_DIMS:
            continue
        x = n.args[0]
        shape = tuple(x.meta["val"].shape)
        dims = _ANY_DIMS[n.target](tuple(n.args))
        keepdim = n.args[2] if len(n.args) > 2 else n.kwargs.get("keepdim", False)
        reduced = [shape[d] for d in dims] if dims else list(shape)
        if any(size == 0 for size in reduced):
            continue
        with gm.graph.inserting_before(n):
            nonzero = gm.graph.call_function(aten.ne.Scalar, (x, 0))
            nonzero.meta["val"] = x.meta["val"] != 0
            made = gm.graph.call_function(aten.amax.default, (nonzero, dims, keepdim))
        made.meta.update(n.meta)
        n.replace_all_uses_with(made)
        gm.graph.erase_node(n)
    gm.recompile()


def _drop_metadata_asserts(gm):
    """Export's checks that a tensor kept the dtype and device it was traced with: they hold
    by construction in the emitted module, and as users of fused values they would make each
    checked value a kernel output."""
    for n in list(gm.graph.nodes):
        if n.op == "call_function" and n.target is aten._assert_tensor_metadata.default:
            gm.graph.erase_node(n)
    gm.recompile()


def _split_value_index_reductions(gm):
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target not in _HALVES:
            continue
        halves = [u.args[1] if u.target is operator.getitem else None for u in n.users]
        if any(h is None or _HALVES[n.target][h] is None for h in halves):
            continue  # the tuple used whole, or a half with no op of its own: ATen computes it
        # Only the halves in use: an unused argmax would be a kernel output.
        ops = {h: _HALVES[n.target][h](tuple(n.args), dict(n.kwargs)) for h in set(halves)}
        if any(op is None for op in ops.values()):
            continue  # a half with no op of its own for these arguments
        made = {}
        for user in list(n.users):
            half = user.args[1]
            if half not in made:
                target, args, kwargs = ops[half]
                with gm.graph.inserting_after(n):
                    made[half] = gm.graph.call_function(target, args, kwargs)
                made[half].meta.update(n.meta, val=n.meta["val"][half])
            user.replace_all_uses_with(made[half])
            gm.graph.erase_node(user)
        gm.graph.erase_node(n)
    gm.recompile()


def _parts_as_views(gm):
    """Each part taken from a ``split``/``split_with_sizes``/``unbind`` becomes the ``slice`` or
    ``select`` it is: a view the planner reads through, so ops on the parts of a fused result
    (a GLU's or a GRU's chunks of one tensor) join the kernel that computes it, where an op of
    several results stays with ATen and its parts are written between two kernels."""
    # Positions of the graph as traced: the slices made below are never a part's user.
    position = {n: i for i, n in enumerate(gm.graph.nodes)}
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target not in _PARTS or not n.users:
            continue
        if any(u.target is not operator.getitem for u in n.users):
            continue  # the list used whole (a cat of the parts)
        src, dim = n.args[0], n.args[2] if len(n.args) > 2 else n.kwargs.get("dim", 0)
        dim %= src.meta["val"].dim()
        if n.target is aten.unbind.int:
            bounds = [(i, None) for i in range(src.meta["val"].shape[dim])]
        else:
            sizes = n.args[1]
            if isinstance(sizes, int):  # split.Tensor: equal parts, the last may be shorter
                total = src.meta["val"].shape[dim]
                sizes = [min(sizes, total - s) for s in range(0, total, sizes)] if sizes > 0 else []
            starts = [sum(sizes[:i]) for i in range(len(sizes))]
            bounds = [(a, a + b) for a, b in zip(starts, sizes)]
        for user in list(n.users):
            start, end = bounds[user.args[1]]
            target, args = (aten.select.int, (src, dim, start)) if end is None else (aten.slice.Tensor, (src, dim, start, end))
            # Placed where the part is first used: a group that reads one part may then take the
            # whole tensor provisionally, its other parts' users coming later (plan._partition).
            first = min(user.users, key=position.__getitem__, default=user)
            with gm.graph.inserting_before(first):
                part = gm.graph.call_function(target, args)
            part.meta.update(user.meta)
            user.replace_all_uses_with(part)
            gm.graph.erase_node(user)
        gm.graph.erase_node(n)
    gm.recompile()


def _split_convolution_bias(gm):
    """A convolution with a bias becomes the convolution without it, then an add of the bias
    over the channels: ATen's cuDNN path adds the bias in a pass of its own over the output
    (a read and a write of it), which as a pointwise op joins the kernel that reads the output
    next. Marked ``kw_bias_split`` for the planner's explanation."""
    for n in list(gm.graph.nodes):
        if n.op != "call_function" or n.target is not torch.ops.aten.convolution.default:
            continue
        bias, weight, out = n.args[2], n.args[1].meta.get("val"), n.meta.get("val")
        # Batched only (the weight's rank): channels are dim 1 there.
        if bias is None or not isinstance(out, torch.Tensor) or out.dim() != weight.dim():
            continue
        view_shape = [out.shape[1]] + [1] * (out.dim() - 2)
        with gm.graph.inserting_after(n):
            view = gm.graph.call_function(torch.ops.aten.view.default, (bias, view_shape))
        with gm.graph.inserting_after(view):
            added = gm.graph.call_function(torch.ops.aten.add.Tensor, (n, view))
        n.replace_all_uses_with(added, delete_user_cb=lambda user: user is not added)
        view.meta.update(n.meta, val=bias.meta["val"].view(view_shape))
        added.meta.update(n.meta, val=torch.ops.aten.add.Tensor(out, view.meta["val"]))
        n.args = n.args[:2] + (None,) + n.args[3:]
        n.meta["kw_bias_split"] = True
    gm.recompile()

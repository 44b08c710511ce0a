"""The two kernel templates, each rendered in CUDA and in torch from one ``Emitter`` pass.

pointwise: ELEMS groups of VEC consecutive elements a thread, the groups BLOCK * VEC apart (so
    that a warp's accesses stay coalesced and several loads are in flight; VEC consecutive
    elements of a dense operand move as one 16-byte access, see codegen); coordinates come
    from the flat index.
rows: a reduction domain: rows are the kept dims, columns the reduced dims. THREADS threads
    (a power of two) share a row and ROWS_PER_BLOCK rows share a block. Reductions that
    depend on each other run in successive column loops (softmax: max, then the sum of exp);
    values that read only the row (a reduction's result and what follows from it) are
    computed once per row; outputs of the full shape are written in a last column loop.
    A variance of float32 or narrower values takes one loop, not two: the sum and the sum of
    squares accumulate together in double, so the row is read once for its statistics; a
    max and a sum of exponentials relative to it share one loop too (``online``).
"""

import math
from dataclasses import dataclass, field

from . import accumulate, dialects, online, opset
from .emitter import Emitter, Scope, broadcast_coords, contiguous_strides, meta, reached, reduction_dims
from .ir import OutputShape, TensorArg, Unsupported

CUDA_REDUCE_OPS = r"""
struct kw_add_op { template <typename T> KW_F T operator()(T a, T b) const { return a + b; } };
struct kw_mul_op { template <typename T> KW_F T operator()(T a, T b) const { return a * b; } };
struct kw_max_op { template <typename T> KW_F T operator()(T a, T b) const { return kw_maximum(a, b); } };
struct kw_min_op { template <typename T> KW_F T operator()(T a, T b) const { return kw_minimum(a, b); } };
""" + online.CUDA_HELPERS


@dataclass
class Loop:
    lines: list
    reduces: list = field(default_factory=list)
    stores: list = field(default_factory=list)


def coord_vars(prefix, shape, flat, em):
    """Coordinates of ``flat`` in ``shape`` (row-major), as index variables of the current scope."""
    d, coords, strides = em.d, [], contiguous_strides(shape)
    for i, (s, st) in enumerate(zip(shape, strides)):
        if s == 1:
            coords.append("0")
            continue
        e = flat if st == 1 else d.idiv(flat, st)
        if any(shape[j] != 1 for j in range(i)):
            e = d.imod(e, s)
        var = "%s%d" % (prefix, i)
        em.scope.lines.append(d.assign(var, e, "idx"))
        coords.append(var)
    for var, digit in zip(coords, em.digits.unflattened(em.digits.of(flat), shape, strides)):
        em.digits.set(var, digit)
    return tuple(coords)


def memory_order(shape, stride):
    """The dims from outermost to innermost in memory (largest stride first, ties in their
    logical order): the identity for a contiguous tensor."""
    return sorted(range(len(shape)), key=lambda d: (-stride[d], d))


def dense_strides(shape, order):
    """The strides of a tensor of ``shape`` laid out densely with its dims in ``order``."""
    strides, acc = [0] * len(shape), 1
    for d in reversed(order):
        strides[d] = acc
        acc *= max(shape[d], 1)
    return tuple(strides)


def output_args(outputs):
    args = []
    for n in outputs:
        v = meta(n)
        if v.dtype not in dialects.STORAGE_TYPES:
            raise Unsupported("%s has dtype %s" % (n.name, v.dtype))
        # ATen gives a pointwise result its inputs' memory order, and later views of it were
        # traced on that order: write the same strides.
        args.append(TensorArg(n.name, tuple(v.shape), tuple(v.stride()), v.dtype))
    return args


def _out_offset(coords, shape, stride):
    terms = [c if st == 1 else "%s * %d" % (c, st)
             for c, st, s in zip(coords, stride, shape) if s != 1 and c != "0"]
    return " + ".join(terms) if terms else "0"


def store(em, k, coords, out, var):
    flat = em.flat_offset(coords, out.shape, out.stride)
    offset = flat or em.index(_out_offset(coords, out.shape, out.stride), coords)
    if em.d.name == "cuda":
        if flat is not None and em.at_row_flat(coords, out.shape):
            em.row_stores.add(k)
            return "kw_store(KW_OUT_AT(%d, %s), %s);" % (k, offset, var)
        return "kw_store(&out%d[%s], %s);" % (k, offset, var)
    return "kw_st(out%d, %s, %s)" % (k, offset, var)


def pointwise(nodes, outputs, dialect):
    """(emitter, output args, statements, shape) of the pointwise template."""
    shape = tuple(meta(outputs[-1]).shape)
    for o in outputs:
        if tuple(meta(o).shape) != shape:  # the earlier output, which later joins may absorb
            raise OutputShape("outputs of different shapes (%s and %s)" % (tuple(meta(o).shape), shape), o)
    em = Emitter(dialect, nodes)
    outs = output_args(outputs)
    # Consecutive threads take consecutive addresses of the first output, whatever its memory
    # order (a channels_last result is walked channel fastest), so its writes coalesce.
    order = memory_order(shape, outs[0].stride)
    walked = coord_vars("d", tuple(shape[d] for d in order), "i", em)
    coords = [None] * len(shape)
    for position, d in enumerate(order):
        coords[d] = walked[position]
    coords = tuple(coords)
    em.flat[(coords, shape)] = ("i", dense_strides(shape, order))
    em.row_flat = "i"  # dense operands read, and outputs written, at it: the vector path stages them
    stores = [store(em, k, coords, outs[k], em.value(o, coords)) for k, o in enumerate(outputs)]
    return em, outs, em.scope.lines + stores, shape


def rows(nodes, outputs, dialect):
    """(emitter, output args, row-scope statements with Loops, row stores, rows, cols)."""
    reductions = [n for n in nodes if opset.kind(n) == opset.REDUCTION]
    first = reductions[0]
    full = tuple(meta(first.args[0]).shape)
    dims, _ = reduction_dims(first)
    for r in reductions[1:]:
        if tuple(meta(r.args[0]).shape) != full or reduction_dims(r)[0] != dims:
            raise Unsupported("reductions over different domains (%s over dims %s of %s, %s over %s of %s)" % (
                first.name, dims, full, r.name, reduction_dims(r)[0], tuple(meta(r.args[0]).shape)))
    kept_shape = tuple(s for i, s in enumerate(full) if i not in dims)
    red_shape = tuple(full[i] for i in dims)
    outs = output_args(outputs)
    kept_dims = [i for i, s in enumerate(full) if s != 1 and i not in dims]
    reduced_dims = [i for i in dims if full[i] != 1]
    # Rows, then columns, in memory order: the domain's flat index is row * cols + col.
    row_major = not kept_dims or not reduced_dims or max(kept_dims) < min(reduced_dims)
    kinds = [_output_kind(o, full, kept_shape, row_major) for o in outputs]

    em = Emitter(dialect, nodes)
    if dialect.name == "cuda":
        em.col_cache = {}
    if row_major:
        em.digits.start_rows(math.prod(kept_shape), math.prod(red_shape))
    row_scope = em.scope
    row_coords = coord_vars("r", kept_shape, "row", em)
    em.row_vars = tuple(row_coords)

    def loop_coords():
        col_coords = coord_vars("c", red_shape, "col", em)
        it_r, it_c = iter(row_coords), iter(col_coords)
        coords = tuple(next(it_c) if i in dims else next(it_r) for i in range(len(full)))
        if row_major:
            # With one column its coordinates are all literal 0, and a value at them is hoisted
            # out of the column loop, where ``col`` is not defined.
            em.flat[(coords, full)] = ("row * %d + col" % math.prod(red_shape) if math.prod(red_shape) > 1 else "row",
                                       contiguous_strides(full))
            em.row_flat = em.flat[(coords, full)][0]
        return coords

    cols = math.prod(red_shape)
    variances = [r for r in reductions if opset.op_name(r.target) in ("var", "std")]
    one_loop = {r for r in variances if accumulate.one_loop_variance(r)}
    pending = [accumulate.Reduce(r, "mean_of", accumulate.acc_ctype(r, "mean_of")) for r in variances]
    pending += [accumulate.Reduce(r, "sumsq_of", "f64") for r in variances if r in one_loop]
    pending += [accumulate.Reduce(r, opset.op_name(r.target), accumulate.acc_ctype(r)) for r in reductions if r not in one_loop]
    if dialect.name == "cuda":  # the torch rendering is the plain two-loop reference
        by_node = {p.node: p for p in pending if p.op not in ("mean_of", "sumsq_of")}
        for s_node, m_node in online.pairs(reductions, set(nodes)).items():
            by_node[s_node].online_of, by_node[m_node].partner = by_node[m_node], by_node[s_node]
    means = {}
    while pending:
        done = set(em.accumulators)
        ready = [p for p in pending if not p.online_of and _ready(p, nodes, done, means)]
        ready += [p for p in pending if p.online_of in ready and _ready(p, nodes, done | {p.online_of.node}, means)]
        if not ready:
            raise Unsupported("the group's reductions depend on each other in a cycle")
        loop = Scope(parent=row_scope, hoist=row_scope)
        em.scope = loop
        coords = loop_coords()
        for p in ready:
            if p.online_of:
                continue  # kw_online_add reads its amax's value
            p.value = em.value(p.node.args[0], coords)
            src_ctype = opset.ctype_of(meta(p.node.args[0]).dtype)
            if p.op in ("argmax", "argmin"):
                if src_ctype not in ("f32", "f64", "i64"):
                    raise Unsupported("%s of a %s tensor" % (p.op, meta(p.node.args[0]).dtype))
            elif src_ctype != p.ctype:
                p.value = em._emit(("cast", p.value, p.ctype), dialect.cast(p.value, p.ctype), p.ctype, coords)
            if p.node in one_loop and cols > 1:
                p.value = _shifted(em, p, full, dims, row_coords, coords)
            if p.op in ("var", "std"):
                dev = em._emit(("dev", p.value), "(%s - %s)" % (p.value, means[p.node]), p.ctype, coords)
                p.value = em._emit(("sq", dev), "(%s * %s)" % (dev, dev), p.ctype, coords)
            elif p.op == "sumsq_of":
                p.value = em._emit(("sq", p.value), "(%s * %s)" % (p.value, p.value), p.ctype, coords)
        em.scope = row_scope
        row_scope.lines.append(Loop(loop.lines, reduces=ready))
        for p in ready:
            p.acc = em.fresh("acc")
            result = accumulate.finish(p, cols, dialect, means.get(p.node))
            if p.online_of:
                t = online.shift_of(p.node)
                t_coords = broadcast_coords(_row_coords_of_full(full, dims, row_coords), full, tuple(meta(t).shape))
                result = "kw_online_finish(%s, %s, %s)" % (p.acc, em.accumulators[p.online_of.node], em.value(t, t_coords))
            var = em.fresh()
            node_ctype = opset.ctype_of(meta(p.node).dtype) if p.op != "mean_of" else p.ctype
            if p.op in ("argmax", "argmin"):
                node_ctype = "i64"
            elif node_ctype != p.ctype:
                result = dialect.cast(result, node_ctype)
            row_scope.lines.append(dialect.assign(var, result, node_ctype))
            if p.op == "mean_of":
                means[p.node] = var
            else:
                em.accumulators[p.node] = var
        pending = [p for p in pending if p not in ready]

    loop = Scope(parent=row_scope, hoist=row_scope)
    full_loop = Loop(loop.lines)
    row_stores = []
    for k, (o, how) in enumerate(zip(outputs, kinds)):
        if how in ("full", "reshaped"):
            if not full_loop.stores:
                em.scope = loop
                coords = loop_coords()
            em.scope = loop
            at = coords if how == "full" else _reshaped_coords(em, tuple(meta(o).shape), coords)
            full_loop.stores.append(store(em, k, at, outs[k], em.value(o, at)))
        else:
            em.scope = row_scope
            shape = tuple(meta(o).shape)
            oc = _row_output_coords(shape, full, dims, row_coords)
            row_stores.append(store(em, k, oc, outs[k], em.value(o, oc)))
    em.scope = row_scope
    if full_loop.stores:
        row_scope.lines.append(full_loop)
    for seg in row_scope.lines:  # a value no later loop reads again needs no register kept
        if isinstance(seg, Loop):
            seg.lines[:] = [line for line in seg.lines if not _unread_put(line, em.col_cache_reused)]
    return em, outs, row_scope.lines, row_stores, math.prod(kept_shape), cols


def _unread_put(line, reused):
    return line.startswith("KW_PUT(") and int(line[7:line.index(",")]) not in reused


def cached_slots(em):
    """[(slot, type)] of the loads a later column loop reads again (``Emitter.col_cache``)."""
    return sorted((slot, ctype) for slot, ctype in (em.col_cache or {}).values() if slot in em.col_cache_reused)


def _reshaped_coords(em, shape, coords):
    """Coordinates in ``shape`` of the domain's element at ``coords``, for an output that holds
    the domain's elements in its order under another shape (a norm's result viewed back from
    (N, G, C/G * H * W) to (N, C, H, W)); they read and write at the domain's flat index."""
    flat = em.index(em.row_flat, coords)
    em.digits.set(flat, (1, None))
    at = em.unflatten(flat, shape, coords)
    em.flat[(at, shape)] = (em.row_flat, contiguous_strides(shape))
    return at


def _output_kind(o, full, kept_shape, row_major):
    shape = tuple(meta(o).shape)
    if shape == full:
        return "full"
    if row_major and math.prod(shape) == math.prod(full) and math.prod(full) > 0:
        return "reshaped"
    if [s for s in shape if s != 1] == [s for s in kept_shape if s != 1] and len(shape) in (len(full), len(kept_shape)):
        return "row"
    raise OutputShape("output %s of shape %s is neither the reduced shape %s nor one value per row" % (
        o.name, shape, full), o)


def _ready(p, nodes, done, means):
    if p.op in ("var", "std") and p.node not in means:
        return False
    return all(r in done for r in reached(p.node.args[0], set(nodes), opset.REDUCTION))


def _shifted(em, p, full, dims, row_coords, coords):
    """A one-loop variance's value less its row's first element K, in the accumulator's type:
    the sum and the sum of squares then lose ((mean - K) / std)^2 of double's precision where
    they would lose (mean / std)^2 (rows of 37 with a mean 2e5 standard deviations from zero:
    relative error 4.0e-6 against eager's 2.2e-8, which the shift matches), and since K is one
    of the row's n values, (mean - K)^2 <= n * var."""
    src, at = p.node.args[0], _row_coords_of_full(full, dims, row_coords)
    k = em.value(src, at)
    if opset.ctype_of(meta(src).dtype) != p.ctype:
        k = em._emit(("cast", k, p.ctype), em.d.cast(k, p.ctype), p.ctype, at)
    return em._emit(("shifted", p.value, k), "(%s - %s)" % (p.value, k), p.ctype, coords)


def _row_coords_of_full(full, dims, row_coords):
    it = iter(row_coords)
    return tuple("0" if i in dims else next(it) for i in range(len(full)))


def _row_output_coords(shape, full, dims, row_coords):
    it = iter(row_coords)
    if len(shape) == len(full):
        return tuple("0" if i in dims else next(it) for i in range(len(full)))
    return tuple(next(it) for _ in shape)

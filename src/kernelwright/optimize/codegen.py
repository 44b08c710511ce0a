"""A group of graph nodes in, a ``KernelSpec`` out: CUDA source, its CPU rendering, and the
launch variants to measure. Raises ``Unsupported`` (with the reason) for a group that
cannot be one kernel; the planner uses that to decide what to fuse.
"""

import math
import textwrap

import torch

from kernelwright import timing

from . import accumulate, cluster, dialects, kernels, opset, scan, split, vectors
from .emitter import meta, reduction_dims
from .ir import KernelSpec, Launch, Unsupported

# (threads a block, elements a thread takes a block-width apart, consecutive elements a thread
# takes). VEC consecutive elements of a 16-byte aligned dense operand load and store as one
# 16-byte access: kernelwright's own elementwise ops reach the copy rate with one or two such
# vectors a thread (benchmarks/results/elementwise_variants_h200_2026-11-22.txt), and scalar
# accesses reached 0.83-0.86 of it on 4096x393216 float32 (H100, 2026-11-25).
ELEMENTWISE_VARIANTS = ((256, 1, 1), (256, 4, 1), (512, 2, 1), (128, 8, 1), (128, 1, 4), (256, 1, 4), (128, 2, 4),
                        (128, 1, 8))
_MAX_GRID_X = 2**31 - 1
# Rows whose columns lie far apart in memory (a reduction over a middle dim), as (a row's
# threads, rows a block) with a warp's lanes on 32 consecutive rows: on an H100, a sum and a
# max over dim 1 of 128x4096x4095 float32 read 2.69-2.81 TB/s with 16 x 64 against ATen's
# 2.75-2.79 in the same runs (a row's threads on the lanes, at best: 2.21-2.33; 8 x 128:
# 2.61-2.70; 32 x 32: 2.64-2.69).
_ACROSS_SHAPES = ((16, 64), (8, 128))
# Strided column loops unrolled this far: 4 beat none, 8 and 16 in the same measurement.
_STRIDED_UNROLL = 4
# Vector column loops load this many steps ahead of their work (vectors.column_loop): level-1
# cross entropy's rows kernel (32768 x 4096, one load in flight a thread) read 0.40 of the copy
# rate (H200, 2026-11-29).
_BATCH = 4
# A thread's loads kept in registers between column loops (CACHED variants) at most this many
# 32-bit words: a row's values read once where its threads' share is short.
_CACHE_WORDS = 32
_CACHED_VARIANTS = 3
_CACHE_MACROS = """#if defined(CACHED) && CACHED
#define KW_TRIPS ((%d + THREADS - 1) / THREADS)
#undef KW_PUT
#undef KW_GET
#define KW_PUT(s, v) kw_cache##s[kw_j] = (v)
#define KW_GET(s, e) kw_cache##s[kw_j]
#endif
"""


def build(group):
    nodes, outputs = group.nodes, group.outputs
    if not outputs:
        raise Unsupported("nothing the group computes is used")
    if any(meta(n).numel() == 0 for n in outputs):
        raise Unsupported("an empty output")
    # A reduction over an empty dim reads nothing: ATen's op gives its value (0, 1, NaN or an
    # error, by op) without a kernel launch, and a generated kernel would have no elements to load.
    # (torch.cat skips empty parts: a concatenation alone reads none.)
    if any(meta(n).numel() == 0 and any(u in nodes and opset.op_name(u.target) != "cat" for u in n.users)
           for n in group.inputs):
        raise Unsupported("an empty input")
    # 32-bit index arithmetic is faster; the margin covers the last block's overshoot.
    index = "long long" if _largest(nodes, group.inputs) >= 2**31 - 2**20 else "int"
    if scan.scan_nodes(nodes):
        return scan.build(group, index, _signature, _torch_def)
    if any(opset.kind(n) == opset.REDUCTION for n in nodes):
        return _rows_spec(group, index)
    return _pointwise_spec(group, index)


def _largest(nodes, inputs):
    sizes = [int(meta(n).numel()) for n in nodes]
    for n in inputs:
        v = meta(n)
        sizes.append(1 + sum((s - 1) * abs(st) for s, st in zip(v.shape, v.stride())))
    return max(sizes + [1])


def _signature(name, em, outs, launch_bound, extra=()):
    params = ["const %s* __restrict__ in%d" % (dialects.STORAGE_TYPES[a.dtype], i)
              for i, a in enumerate(em.inputs.values())]
    params += ["%s* __restrict__ out%d" % (dialects.STORAGE_TYPES[o.dtype], i) for i, o in enumerate(outs)]
    params += list(extra)
    return 'extern "C" __global__ void __launch_bounds__(%s) %s(%s)' % (launch_bound, name, ", ".join(params))


def _torch_def(name, em, outs, body, domain):
    args = ", ".join("in%d" % i for i in range(len(em.inputs)))
    lines = ["def %s(%s):" % (name, args)]
    device = "in0.device" if em.inputs else "'cpu'"
    lines += ["    out%d = torch.empty_strided(%r, %r, dtype=%s, device=%s)" % (
        k, tuple(o.shape), tuple(o.stride), o.dtype, device) for k, o in enumerate(outs)]
    lines += ["    " + line for line in domain + body]
    lines.append("    return (%s,)" % ", ".join("out%d" % k for k in range(len(outs))))
    return "\n".join(lines) + "\n"


def _pointwise_spec(group, index):
    name = group.name
    cem, outs, cbody, shape = kernels.pointwise(group.nodes, group.outputs, dialects.Cuda(index))
    tem, _, tbody, _ = kernels.pointwise(group.nodes, group.outputs, dialects.Torch())
    n = math.prod(shape)
    cuda = _pointwise_cuda(_signature(name, cem, outs, "BLOCK"), cem, outs, "\n".join(cbody), index, n)
    variants = []
    for block, elems, vec in ELEMENTWISE_VARIANTS:
        grid = -(-n // (block * elems * vec))
        if grid <= _MAX_GRID_X and (elems * vec == 1 or n > block * elems * vec):
            variants.append(Launch((grid, 1, 1), (block, 1, 1), (("BLOCK", block), ("ELEMS", elems), ("VEC", vec))))
    torch_src = _torch_def(name, tem, outs, tbody, ["i = torch.arange(%d, device=out0.device)" % n])
    return KernelSpec(name, "pointwise", list(cem.inputs.values()), outs, cuda, torch_src, variants,
                      group.ops(), rows=n, cols=1)


def _pointwise_cuda(signature, em, outs, body, index, n):
    """The pointwise kernel: thread t of block b takes elements ((b * ELEMS + e) * BLOCK + t) * VEC
    + k. Where every pointer is 16-byte aligned, a thread's VEC elements are whole vectors: the
    dense operands (read and written at the flat index) move between memory and registers in
    16-byte accesses (``kw_copy_vec``), with no bounds check. Elsewhere (the last vectors, a
    misaligned view) each element is checked and accessed alone."""
    staged_in, staged_out = sorted(em.row_loads), sorted(em.row_stores)
    types_in = list(em.inputs.values())
    pointers = ["in%d" % i for i in range(len(types_in))] + ["out%d" % k for k in range(len(outs))]
    aligned = " | ".join("reinterpret_cast<unsigned long long>(%s)" % p for p in pointers) or "0ull"
    stage = "".join("      alignas(16) %s kw_stage%d[VEC];\n      kw_copy_vec<VEC>(kw_stage%d, in%d + base);\n" % (
        dialects.STORAGE_TYPES[types_in[k].dtype], k, k, k) for k in staged_in)
    stage += "".join("      alignas(16) %s kw_ostage%d[VEC];\n" % (dialects.STORAGE_TYPES[outs[k].dtype], k)
                     for k in staged_out)
    unstage = "".join("      kw_copy_vec<VEC>(out%d + base, kw_ostage%d);\n" % (k, k) for k in staged_out)
    return (
        "%s {\n  const bool kw_vectors = VEC > 1 && ((%s) & 15ull) == 0;\n"
        "  #pragma unroll\n  for (int e = 0; e < ELEMS; ++e) {\n"
        "    const %s base = (((%s)blockIdx.x * ELEMS + e) * BLOCK + threadIdx.x) * VEC;\n"
        "    if (kw_vectors && base + VEC <= %d) {\n%s"
        "#undef KW_ROW_LOAD\n#define KW_ROW_LOAD(k, off) kw_load(kw_stage##k[(off) - base])\n"
        "#undef KW_OUT_AT\n#define KW_OUT_AT(k, off) (&kw_ostage##k[(off) - base])\n"
        "      #pragma unroll\n      for (int k = 0; k < VEC; ++k) {\n        const %s i = base + k;\n%s\n      }\n"
        "#undef KW_ROW_LOAD\n#define KW_ROW_LOAD(k, off) kw_load(in##k[off])\n"
        "#undef KW_OUT_AT\n#define KW_OUT_AT(k, off) (&out##k[off])\n"
        "%s    } else {\n"
        "      for (int k = 0; k < VEC; ++k) {\n        const %s i = base + k;\n        if (i < %d) {\n%s\n        }\n      }\n"
        "    }\n  }\n}\n" % (signature, aligned, index, index, n, stage, index, textwrap.indent(body, "        "),
                            unstage, index, n, textwrap.indent(body, "          ")))


def _rows_spec(group, index):
    name = group.name
    cem, outs, clines, cstores, nrows, ncols = kernels.rows(group.nodes, group.outputs, dialects.Cuda(index))
    tem, _, tlines, tstores, _, _ = kernels.rows(group.nodes, group.outputs, dialects.Torch())
    strided = _strided_columns(group.nodes)
    vec = vectors.row_vector(cem, outs, ncols)
    pointers = ["in%d" % k for k in sorted(cem.row_loads)] + ["out%d" % k for k in sorted(cem.row_stores)]
    body = ["const bool kw_vectors = VEC > 1 && %s;" % vectors.aligned(pointers)] if vec else []
    # Loads a later column loop reads again, kept in registers by the CACHED variants; not
    # beside the vector loop, whose columns are not counted by kw_j.
    cached = [] if vec else kernels.cached_slots(cem)
    if cached:
        body += ["#if defined(CACHED) && CACHED"] + ["%s kw_cache%d[KW_TRIPS];" % (dialects.CUDA_TYPES[t], k)
                                                      for k, t in cached] + ["#endif"]
    for seg in clines:
        body += _cuda_segment(seg, index, ncols, cem, outs if vec else None, strided, bool(cached)) \
            if isinstance(seg, kernels.Loop) else [seg]
    if cstores:
        body.append("if (row_ok && kw_lane == 0) {")
        body += ["  " + s for s in cstores]
        body.append("}")
    # A row's THREADS threads are threadIdx.x and the block's rows threadIdx.y, unless
    # ROWS_ACROSS_LANES swaps them: then a warp's lanes take 32 consecutive rows, which is what
    # reads coalesced where the columns are far apart in memory (see _ACROSS_SHAPES).
    cuda = (_CACHE_MACROS % ncols if cached else "") + (
            "%s {\n%s  const int kw_lane = ROWS_ACROSS_LANES ? threadIdx.y : threadIdx.x;\n"
            "  const int kw_slot = ROWS_ACROSS_LANES ? threadIdx.x : threadIdx.y;\n"
            "  const %s row_raw = (%s)blockIdx.x * ROWS_PER_BLOCK + kw_slot;\n"
            "  const bool row_ok = row_raw < %d;\n  const %s row = row_ok ? row_raw : %d;\n%s\n}\n") % (
        _signature(name, cem, outs, "THREADS * ROWS_PER_BLOCK"),
        _shared(clines, "(ROWS_ACROSS_LANES ? THREADS * ROWS_PER_BLOCK : 32)"), index, index, nrows, index,
        nrows - 1, textwrap.indent("\n".join(body), "  "))
    smem = _shared(clines, "32")
    tbody = []
    for seg in tlines:
        tbody += _torch_segment(seg, nrows, ncols) if isinstance(seg, kernels.Loop) else [seg]
    tbody += tstores
    torch_src = _torch_def(name, tem, outs, tbody, ["row = torch.arange(%d, device=out0.device).view(-1, 1)" % nrows])
    threads_options = _thread_options(ncols, strided)
    # Vectors where a thread's share of the row holds several: the widest thread options only.
    shapes = [(t, max(1, 256 // t), 1, 0) for t in threads_options]
    shapes += [(t, max(1, 256 // t), vec, 0) for t in threads_options if vec and ncols >= t * vec][-3:]
    if strided:
        shapes += [(t, per_block, 1, 1) for t, per_block in _ACROSS_SHAPES if ncols >= t]
    words = sum(2 if dialects.CUDA_TYPES[t] in ("double", "long long") else 1 for _, t in cached)
    # Cached variants where a thread's share fits the registers given, those holding the most
    # columns a thread first (where caching saves the most loads).
    cacheable = sorted((s for s in shapes if cached and -(-ncols // s[0]) * words <= _CACHE_WORDS), key=lambda s: s[0])
    shapes = [s + (0,) for s in shapes] + [s + (1,) for s in cacheable[:_CACHED_VARIANTS]]
    variants = []
    for threads, per_block, v, across, keep in shapes:
        grid = -(-nrows // per_block)
        if grid <= _MAX_GRID_X:
            block = (per_block, threads, 1) if across else (threads, per_block, 1)
            variants.append(Launch((grid, 1, 1), block, (("THREADS", threads), ("ROWS_PER_BLOCK", per_block),
                                                         ("VEC", v), ("ROWS_ACROSS_LANES", across))
                                   + ((("CACHED", 1),) if keep else ())))
    other = {}
    sms = sm_count()
    cached = [(k,) + cluster.storage(arg) for k, arg in enumerate(cem.inputs.values()) if k in cem.row_loads]
    if split.applies(nrows, ncols, sms):
        try:
            wide = (vectors.aligned(pointers), lambda seg, start, end: vectors.column_loop(
                seg, index, ncols, cem, outs, start, end, lambda k: "in%d + kw_base" % k, batch=_BATCH)) if vec else None
            other["split rows"] = split.body(
                _signature(name, cem, outs, "THREADS, BLOCKS_PER_SM", ["unsigned char* __restrict__ kw_ws"]), smem,
                clines, cstores, nrows, ncols, index, wide)
            variants += split.launches(nrows, ncols, sms, split.slot_count(clines), vec,
                                       row_bytes=ncols * sum(size for _, _, size in cached), l2_bytes=l2_bytes())
        except Unsupported:
            pass  # the rows template alone: slower on few rows, but the same result
    if cluster.applies(clines, sum(size for _, _, size in cached), nrows, ncols, capability()):
        sizes = [size for _, _, size in cached]
        try:
            if cluster.pipelined(clines, ncols, cached):
                wide = None
                if vec:
                    stored = ["out%d" % k for k in sorted(cem.row_stores)]
                    wide = (vectors.aligned(stored) if stored else "true",
                            lambda seg, start, end, source, row_load: vectors.column_loop(
                                seg, index, ncols, cem, outs, start, end, source, row_load))
                other["cluster rows"] = cluster.body(
                    _signature(name, cem, outs, "THREADS", ["unsigned char* __restrict__ kw_ws"]), smem, clines,
                    cstores, nrows, ncols, index, cached, wide)
                variants += cluster.launches(nrows, ncols, sizes, sms, vec)
            else:
                other["cluster rows"] = cluster.one_row_body(_signature(name, cem, outs, "THREADS"), smem, clines,
                                                             cstores, ncols, index, cached)
                variants += cluster.one_row_launches(nrows, ncols, sizes)
        except Unsupported:
            pass  # an accumulator the blocks cannot exchange: the rows template reads the row again
    if not variants:
        raise Unsupported("%d rows do not fit one grid" % nrows)
    return KernelSpec(name, "rows", list(cem.inputs.values()), outs, cuda, torch_src, variants,
                      group.ops(), rows=nrows, cols=ncols, other_bodies=other)


def sm_count():
    """The device's SMs, which the split template's grid must not outnumber; an H100's where
    there is no GPU (the emitted kernel's cooperative launch refuses a grid that does not fit)."""
    if torch.cuda.is_available():
        return torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    return 132


def l2_bytes():
    """The device's L2 cache, which the split template's rounds of rows are sized to; an
    H100's where there is no GPU."""
    if torch.cuda.is_available():
        return timing.l2_cache_bytes(torch.cuda.current_device())
    return 50 << 20


def capability():
    """The device's compute capability, which the cluster template needs to be 9.0 or more;
    an H100's where there is no GPU."""
    if torch.cuda.is_available():
        return torch.cuda.get_device_capability(torch.cuda.current_device())
    return (9, 0)


def _strided_columns(nodes):
    """Whether the reduced dims leave out the innermost one: then consecutive rows lie side by
    side in memory and consecutive columns far apart, so a warp reads coalesced only when its
    threads take different rows (few threads a row)."""
    first = next(n for n in nodes if opset.kind(n) == opset.REDUCTION)
    full = tuple(meta(first.args[0]).shape)
    inner = [i for i, s in enumerate(full) if s != 1]
    return bool(inner) and inner[-1] not in reduction_dims(first)[0]


def _thread_options(cols, strided):
    best = 1
    while best < cols and best < 1024:
        best *= 2
    options = {best, max(1, best // 4)}
    if best >= 128:
        options.add(best // 2)
    if strided:
        options |= {t for t in (1, 4) if t < best}
    return sorted(t for t in options if t >= 1)


def _cuda_segment(loop, index, ncols, em, outs, strided, cached=False):
    """A column loop of the rows template, then its block reductions. With ``outs`` (the
    kernel's outputs, where VEC variants exist) the loop is emitted twice: VEC consecutive
    columns a thread, the dense operands it touches moved in 16-byte (or 8-byte) accesses,
    where every staged pointer is aligned; one column at a time otherwise. ``strided``: columns
    far apart in memory, each load its own request; the loop is unrolled so that several are
    in flight a thread. ``cached``: the loop counts its columns for the CACHED variants
    (accumulate.column_for)."""
    out = accumulate.column_declarations(loop)
    scalar = accumulate.column_for(loop, index, "kw_lane", ncols, unroll=_STRIDED_UNROLL if strided else None,
                                   cached=cached)
    if outs is None:
        out += scalar
    else:
        vector = vectors.column_loop(loop, index, ncols, em, outs, "kw_lane * VEC", ncols,
                                     lambda k: "in%d + kw_base" % k, batch=_BATCH)
        out += ["if (kw_vectors) {"] + ["  " + line for line in vector]
        out += ["} else {"] + ["  " + line for line in scalar] + ["}"]
    for p in loop.reduces:
        out += accumulate.block_reduce(p, "ROWS_ACROSS_LANES")
    return out


def _shared(clines, slots):
    """The block's shared arrays for its reductions, ``slots`` values each."""
    reduces = [p for seg in clines if isinstance(seg, kernels.Loop) for p in seg.reduces]
    out = "".join("  __shared__ %s %s[%s];\n" % (dialects.CUDA_TYPES[t if t != "bool" else "i64"],
                                                 accumulate.smem_name(t), slots)
                  for t in sorted({p.ctype for p in reduces}))
    if any(accumulate.is_arg(p) for p in reduces):
        out += "  __shared__ long long kw_smem_idx[%s];\n" % slots
    return out


def _torch_segment(loop, nrows, ncols):
    out = ["col = torch.arange(%d, device=out0.device).view(1, -1)" % ncols] + list(loop.lines)
    for p in loop.reduces:
        full = "kw_grid(%s, %d, %d)" % (p.value, nrows, ncols)
        if accumulate.is_arg(p):
            out.append("%s_i = %s.%s(1, keepdim=True)" % (p.acc, full, p.op))
        else:
            out.append("%s = %s.%s(1, keepdim=True)" % (p.acc, full, accumulate.torch_reduce_method(p)))
    out += loop.stores
    return out

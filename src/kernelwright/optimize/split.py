"""The split-rows template: few long rows, each shared by SPLIT blocks.

With one block a row, a reduction over a handful of rows (a loss to one scalar, layer norm
over 16 rows of 4M, batch statistics over 64 channels) leaves most SMs idle. Here block
(part, row) reduces the columns [part * CHUNK, (part + 1) * CHUNK) of its row, leaves its
partial result in the workspace, and waits at the row's barrier until every part has; then
each block combines the SPLIT partials in the same order (so every block of a row holds the
same value) and goes on to the next dependent reduction or writes its slice of the
full-shape outputs. A barrier needs every block resident at once: the launch is
cooperative, which the driver refuses rather than hangs where the grid does not fit.
"""

import textwrap
from dataclasses import dataclass
from typing import Callable

from . import accumulate, dialects, kernels
from .ir import Launch, Unsupported

# Shapes below these leave the rows template enough parallelism on its own.
MIN_COLS = 8192
_SPLIT_CTYPES = ("f32", "f64", "i64")
# (threads a block, blocks per SM): the grid is kept to what an SM holds at once, which
# __launch_bounds__(THREADS, BLOCKS_PER_SM) guarantees by capping registers. The first H100
# run (2026-11-25) had 1024 threads an SM beat 512 by 1.4-1.5x on three problems: loads in
# flight bound these loops, so the other shapes fill all 2048 thread slots of an SM.
_SHAPES = ((1024, 1), (1024, 2), (512, 4))

CUDA_HELPERS = r"""
template <typename T> KW_F void kw_part_store(unsigned long long* p, T v) { *reinterpret_cast<T*>(p) = v; }
template <typename T> KW_F T kw_part_load(const unsigned long long* p) {
  // Written by other blocks: read through L2 (__ldcg), never a stale L1 line.
  return __ldcg(reinterpret_cast<const T*>(p)); }
KW_F void kw_row_barrier(unsigned int* bar, unsigned int target) {
  // Every block of the row adds one and waits for the count of the phase; the fences make
  // the partials written before it visible to the blocks that read them after it.
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(bar, 1u);
    while (atomicAdd(bar, 0u) < target) __nanosleep(64);
    __threadfence();
  }
  __syncthreads();
}
"""


def applies(nrows, ncols, sm_count):
    return ncols >= MIN_COLS and nrows < 2 * sm_count


def launches(nrows, ncols, sm_count, slots, vec=0, row_bytes=0, l2_bytes=0):
    """The split variants: for each block shape, as many parts a row as fill the SMs once; with
    ``vec`` (vectors.row_vector's), each shape again with VEC columns a thread, every part's
    first column a multiple of THREADS * VEC so that its vectors stay aligned. Where the rows'
    inputs (``row_bytes`` each) outgrow half the L2 (``l2_bytes``) but one row does not, each
    shape again in rounds of ROUNDS rows: all the grid's blocks take a round's rows, so that a
    later loop over a row finds it in L2, where its first loop left it."""
    bar_bytes = -(-4 * nrows // 16) * 16
    rounds = [nrows]
    if row_bytes and row_bytes <= l2_bytes < 2 * nrows * row_bytes:
        rounds.append(max(1, min(nrows - 1, l2_bytes // 2 // row_bytes)))
    out = []
    for threads, per_sm in _SHAPES:
        for v in (1, vec) if vec > 1 else (1,):
            for rows in rounds:
                split = max(1, (per_sm * sm_count) // rows)
                step = threads * v
                chunk = -(-(-(-ncols // split)) // step) * step
                split = -(-ncols // chunk)
                if split < 2 or nrows > 65535:
                    continue
                workspace = bar_bytes + 8 * slots * nrows * split
                defines = (("THREADS", threads), ("BLOCKS_PER_SM", per_sm), ("SPLIT", split), ("CHUNK", chunk))
                defines += (("ROUNDS", rows),) if rows < nrows else ()
                out.append(Launch((split, rows, 1), (threads, 1, 1), defines + ((("VEC", v),) if vec > 1 else ()),
                                  workspace=workspace, cooperative=True, template="split rows"))
    return out


def slot_count(clines):
    return sum(2 if accumulate.is_arg(p) else 1 for seg in clines if isinstance(seg, kernels.Loop) for p in seg.reduces)


def body(signature, smem, clines, cstores, nrows, ncols, index, vector=None):
    """The kernel's source; ``signature``'s last parameter is the workspace, ``kw_ws``.
    ``vector``: where VEC columns a thread are possible, ``(aligned, column_loop)``: the
    condition on the staged pointers, and ``column_loop(loop, start, end)``, the loop over
    [start, end) that stages VEC columns a thread (vectors.column_loop for this kernel)."""
    bar_bytes = -(-4 * nrows // 16) * 16
    # Block (part, y) takes rows y, y + gridDim.y, ...: a row's barrier counts its own parts,
    # the same blocks whichever round it falls in.
    head = ["const bool row_ok = true;",
            "const %s col_begin = (%s)blockIdx.x * CHUNK;" % (index, index),
            "const %s col_end = col_begin + CHUNK < %d ? col_begin + CHUNK : %d;" % (index, ncols, ncols),
            "unsigned int* kw_bar = reinterpret_cast<unsigned int*>(kw_ws) + row;",
            "unsigned long long* kw_part = reinterpret_cast<unsigned long long*>(kw_ws + %d);" % bar_bytes]
    column_loop = None
    if vector:
        aligned, wide = vector
        head.append("const bool kw_vectors = VEC > 1 && %s;" % aligned)

        def vector_or_scalar(seg, k):
            scalar = accumulate.column_for(seg, index, "col_begin + threadIdx.x", "col_end")
            return (accumulate.column_declarations(seg)
                    + ["if (kw_vectors) {"] + ["  " + s for s in wide(seg, "col_begin + threadIdx.x * VEC", "col_end")]
                    + ["} else {"] + ["  " + s for s in scalar] + ["}"])

        column_loop = vector_or_scalar
    exchange = Exchange(
        store=lambda slot, value: "kw_part_store(%s, %s);" % (_part(slot, nrows, "blockIdx.x"), value),
        load=lambda ctype, slot: "kw_part_load<%s>(%s)" % (ctype, _part(slot, nrows)),
        barrier=lambda phase: "kw_row_barrier(kw_bar, %d * SPLIT);" % phase, parts="SPLIT", by_warp=True)
    lines = head + phases(clines, index, exchange, column_loop)
    if cstores:
        lines += ["if (blockIdx.x == 0 && threadIdx.x == 0) {"] + ["  " + s for s in cstores] + ["}"]
    rows = "for (%s row = blockIdx.y; row < %d; row += gridDim.y) {" % (index, nrows)
    return "%s {\n%s  %s\n%s\n  }\n}\n" % (signature, smem, rows, textwrap.indent("\n".join(lines), "    "))


@dataclass
class Exchange:
    """How the blocks of a row share their partial results: ``store(slot, value)`` leaves this
    block's, ``load(ctype, slot)`` reads part ``q``'s, ``barrier(phase)`` waits until every
    part has stored; ``parts`` counts the blocks of a row. ``by_warp``: the partials are
    combined by the block's first warp and handed to the others through shared memory, instead
    of by every thread (SPLIT loads a block where every thread's would be SPLIT x THREADS, which
    a row split a hundred ways or more waits on: NOTES 56)."""

    store: Callable
    load: Callable
    barrier: Callable
    parts: str
    by_warp: bool = False


def phases(clines, index, exchange, column_loop=None):
    """The row's statements with each column loop over [col_begin, col_end) and, after each
    reducing loop, its partials exchanged and combined in the same order in every block (so
    that all blocks of the row hold the same value). ``column_loop(loop, k)``, where given,
    writes the k-th column loop instead."""
    d = dialects.Cuda(index)
    for seg in clines:
        if isinstance(seg, kernels.Loop):
            for p in seg.reduces:
                if p.ctype not in _SPLIT_CTYPES:
                    raise Unsupported("a %s accumulator cannot be split across blocks" % p.ctype)
    if column_loop is None:
        def column_loop(seg, k):
            return accumulate.cuda_column_loop(seg, index, "col_begin + threadIdx.x", "col_end")
    lines, slot, phase, k = [], 0, 0, 0
    for seg in clines:
        if not isinstance(seg, kernels.Loop):
            lines.append(seg)
            continue
        lines += column_loop(seg, k)
        k += 1
        if not seg.reduces:
            continue
        phase += 1
        shares, combines, slots = [], [], {}  # combines: each accumulator's statements
        loop = ("for (int q = threadIdx.x; q < %s; q += 32)" if exchange.by_warp else "for (int q = 0; q < %s; ++q)") % (
            exchange.parts)
        for p in seg.reduces:
            ctype = dialects.CUDA_TYPES[p.ctype]
            slots[id(p)] = slot
            shares += accumulate.block_reduce(p)
            if accumulate.is_arg(p):
                largest = "true" if p.op == "argmax" else "false"
                shares.append("if (threadIdx.x == 0) { %s %s }" % (
                    exchange.store(slot, p.acc), exchange.store(slot + 1, p.acc + "_i")))
                combines.append(["%s = %s; %s_i = 0x7fffffffffffffffLL;" % (p.acc, accumulate.init_literal(p, d), p.acc),
                                 loop, "  kw_argbest(%s, %s_i, %s, %s, %s);" % (
                                     p.acc, p.acc, exchange.load(ctype, slot), exchange.load("long long", slot + 1),
                                     largest)])
                slot += 2
                continue
            shares.append("if (threadIdx.x == 0) %s" % exchange.store(slot, p.acc))
            if p.online_of:  # each part's sum is relative to its own max: moved to the row's
                m = p.online_of
                step = "%s %s += kw_online_part(%s, %s, %s);" % (
                    loop, p.acc, exchange.load("double", slot),
                    exchange.load(dialects.CUDA_TYPES[m.ctype], slots[id(m)]), m.acc)
            else:
                step = "%s %s = %s()(%s, %s);" % (loop, p.acc, accumulate.combine_op(p), p.acc, exchange.load(ctype, slot))
            combines.append(["%s = %s;" % (p.acc, accumulate.init_literal(p, d)), step])
            slot += 1
        combine = _by_warp(seg.reduces, combines, phase) if exchange.by_warp else [line for c in combines for line in c]
        lines += shares + [exchange.barrier(phase)] + combine
    return lines


def _by_warp(reduces, combines, phase):
    """``combines`` (each accumulator's statements, over a lane's share of the parts) run by the
    first warp, each accumulator then reduced across the lanes and taken from lane 0, in order
    (a sum of exponentials reads its row's max), and given to the block through shared memory. Every block runs the same steps
    on the same partials: they all hold the same bits."""
    warp, shared, taken = [], [], []
    accs = [(p.acc, dialects.CUDA_TYPES[p.ctype]) for p in reduces]
    for p in reduces:
        if accumulate.is_arg(p):
            accs.append((p.acc + "_i", "long long"))
    for p, lines in zip(reduces, combines):
        warp += lines
        ctype = dialects.CUDA_TYPES[p.ctype]
        if accumulate.is_arg(p):
            warp += ["for (int o = 16; o > 0; o >>= 1) {",
                     "  const %s kw_v2 = __shfl_xor_sync(0xffffffffu, %s, o);" % (ctype, p.acc),
                     "  const long long kw_i2 = __shfl_xor_sync(0xffffffffu, %s_i, o);" % p.acc,
                     "  kw_argbest(%s, %s_i, kw_v2, kw_i2, %s);" % (p.acc, p.acc, "true" if p.op == "argmax" else "false"),
                     "}", "%s_i = __shfl_sync(0xffffffffu, %s_i, 0);" % (p.acc, p.acc)]
        else:
            op = "kw_add_op" if p.online_of else accumulate.combine_op(p)
            warp.append("for (int o = 16; o > 0; o >>= 1) %s = %s()(%s, __shfl_xor_sync(0xffffffffu, %s, o));" % (
                p.acc, op, p.acc, p.acc))
        warp.append("%s = __shfl_sync(0xffffffffu, %s, 0);" % (p.acc, p.acc))
    for acc, ctype in accs:
        shared.append("__shared__ %s kw_by_warp_%s;" % (ctype, acc))
        taken.append("%s = kw_by_warp_%s;" % (acc, acc))
    stores = ["kw_by_warp_%s = %s;" % (acc, acc) for acc, _ in accs]
    return (shared + ["if (threadIdx.x < 32) {"] + ["  " + w for w in warp]
            + ["  if (threadIdx.x == 0) { %s }" % " ".join(stores), "}", "__syncthreads();  // combined, phase %d" % phase]
            + taken)


def _part(slot, nrows, part="q"):
    return "&kw_part[(%d * %d + row) * SPLIT + %s]" % (slot, nrows, part)

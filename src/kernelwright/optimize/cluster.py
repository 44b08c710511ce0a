"""The cluster-rows template: a row read from memory once, however many loops walk it.

The rows template walks a row once per dependent reduction and once more to write a
full-shape output (layer norm: statistics, then the normalized row), so a row too long for
the caches is read from memory two or three times. Here a Hopper thread-block cluster of
CLUSTER blocks holds the row: block ``rank`` keeps columns [rank * CHUNK, (rank + 1) * CHUNK)
of each input read at the row's flat offset in its shared memory, every loop reads that copy
(``KW_ROW_LOAD``), and the blocks exchange their partial results through distributed shared
memory, waiting at the cluster's barrier instead of the split template's global one. Up to 8
blocks of about 200 KB: rows of up to about 1.6 MB of such inputs.

Where every cached input's rows are a multiple of 16 bytes, the clusters are persistent and
the copy is pipelined, because with one block an SM nothing else overlaps a block's phases
(one row a cluster, filled by plain loads, ran softmax over rows of 1.5 MB in 11-12 ms,
under 0.4 of the copy rate; pipelined, 8.3 ms, H100 2026-11-26): each block's part is PIECES
pieces, each filled by one bulk asynchronous copy (TMA) that signals its own mbarrier. The
first loop over a row starts on a piece as soon as it has landed, and the last loop, once
every thread is done with a piece, refills it with the next row's, so the next row streams in
while this one is written out. Rows are taken from a counter in the zeroed workspace, so a
cluster that starts late (more clusters than the device holds at once) takes only rows that
are left. Where an input starts off 16 bytes at run time, the pieces are filled by ordinary
loads instead, in the same places.

Rows off 16 bytes cannot be copied in bulk, and filled by loads inside the last loop the
pipelined kernel lost to one row a cluster (L1Norm over rows of 65,535: 11.0 ms against
8.4 ms, H100), so they keep that form (``one_row_body``): a grid of a cluster a row, each
block filling its part with loads before the first loop, co-resident clusters overlapping.
"""

import textwrap

from . import accumulate, dialects, kernels, split, vectors
from .ir import Launch

# A block's shared memory for its part of the row: an H100 block may opt in to 227 KB; the
# rest is left to the statically declared reduction scratch, mbarriers and partials.
SMEM_BUDGET = 200 * 1024
SMEM_PER_SM = 228 * 1024
# Rows whose inputs are smaller than this are left to the rows template, whose later loops
# should find them in L1/L2 (a threshold chosen, not yet measured on a GPU).
MIN_ROW_BYTES = 48 * 1024
_SIZES = (2, 4, 8)  # cluster sizes every Hopper GPU schedules
_THREADS = (512, 1024)
PIECES = 8
_CACHE_LOAD = "kw_load(kw_cache##k[(off) - kw_row_base])"
# The workspace: the row counter, padded to 16 bytes.
WORKSPACE = 16

CUDA_HELPERS = r"""
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
KW_F void kw_cluster_sync() { __cluster_barrier_arrive(); __cluster_barrier_wait(); }
// n elements from global memory into shared (16-byte aligned): 16 bytes a load where the source
// is aligned too.
template <typename T> KW_F void kw_fill_row(T* dst, const T* __restrict__ src, int n) {
  int done = 0;
  if (16 % sizeof(T) == 0 && (reinterpret_cast<unsigned long long>(src) & 15ULL) == 0) {
    const int vectors = n * (int)sizeof(T) / 16;
    for (int i = threadIdx.x; i < vectors; i += blockDim.x)
      reinterpret_cast<uint4*>(dst)[i] = __ldg(reinterpret_cast<const uint4*>(src) + i);
    done = vectors * 16 / (int)sizeof(T);
  }
  for (int i = done + threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
}
template <typename T> KW_F T kw_cluster_load(unsigned long long* p, unsigned int rank) {
  return *reinterpret_cast<const T*>(__cluster_map_shared_rank((void*)p, rank)); }
KW_F unsigned int kw_smem(const void* p) { return (unsigned int)__cvta_generic_to_shared(p); }
KW_F void kw_mbar_init(unsigned long long* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(kw_smem(bar)) : "memory"); }
KW_F void kw_mbar_init_fence() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
// The copy's writes come through the async proxy: order this block's earlier reads of the
// piece (generic proxy) before them.
KW_F void kw_async_fence() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
KW_F void kw_mbar_expect(unsigned long long* bar, unsigned int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(kw_smem(bar)), "r"(bytes) : "memory"); }
KW_F void kw_mbar_arrive(unsigned long long* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(kw_smem(bar)) : "memory"); }
KW_F void kw_mbar_wait(unsigned long long* bar, unsigned int parity) {
  unsigned int done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(kw_smem(bar)), "r"(parity) : "memory");
}
KW_F void kw_bulk_copy(void* dst, const void* src, unsigned int bytes, unsigned long long* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(kw_smem(dst)), "l"(src), "r"(bytes), "r"(kw_smem(bar)) : "memory"); }
#endif
"""


def applies(clines, cached_bytes_per_col, nrows, ncols, capability):
    """Whether the row is walked more than once and its cached inputs are worth holding."""
    passes = sum(1 for seg in clines if isinstance(seg, kernels.Loop))
    return (capability >= (9, 0) and passes >= 2 and cached_bytes_per_col > 0 and nrows <= 65535
            and cached_bytes_per_col * ncols >= MIN_ROW_BYTES)


def launches(nrows, ncols, cached_sizes, sm_count, vec=0):
    """The smallest cluster whose blocks' parts fit SMEM_BUDGET, and the next size up (more
    blocks a row, smaller parts), each with 512 and 1024 threads a block, and as many clusters
    as the device holds at once (each takes rows until none are left); VEC columns a thread
    where ``vec`` allows."""
    fitting = [size for size in _SIZES if _shared_bytes(_chunk(ncols, size), cached_sizes) <= SMEM_BUDGET]
    out = []
    for size in fitting[:2]:
        chunk = _chunk(ncols, size)
        shared = _shared_bytes(chunk, cached_sizes)
        for threads in _THREADS:
            per_sm = max(1, min(2048 // threads, SMEM_PER_SM // (shared + 4096)))
            clusters = max(1, min(nrows, sm_count // size * per_sm))
            out.append(Launch((size, clusters, 1), (threads, 1, 1),
                              (("THREADS", threads), ("CLUSTER", size), ("CHUNK", chunk),
                               ("PIECE", _piece(chunk)), ("VEC", max(vec, 1))),
                              shared=shared, workspace=WORKSPACE, template="cluster rows"))
    return out


def pipelined(clines, ncols, cached):
    """Whether the pipelined kernel serves: every cached input's rows can be copied in bulk
    (16-byte multiples), and a reduction comes before the last loop (its barrier is where the
    blocks learn the next row that loop refills from)."""
    loops = [seg for seg in clines if isinstance(seg, kernels.Loop)]
    return all(ncols * size % 16 == 0 for _, _, size in cached) and any(seg.reduces for seg in loops[:-1])


def one_row_launches(nrows, ncols, cached_sizes):
    """``launches`` for ``one_row_body``: a cluster a row; parts a multiple of 16 columns."""
    out = []
    for size in [s for s in _SIZES if _shared_bytes(_chunk(ncols, s, 16), cached_sizes) <= SMEM_BUDGET][:2]:
        chunk = _chunk(ncols, size, 16)
        for threads in _THREADS:
            out.append(Launch((size, nrows, 1), (threads, 1, 1),
                              (("THREADS", threads), ("CLUSTER", size), ("CHUNK", chunk)),
                              shared=_shared_bytes(chunk, cached_sizes), template="cluster rows"))
    return out


def one_row_body(signature, smem, clines, cstores, ncols, index, cached):
    """The kernel of a cluster a row (see the module's docstring), its part filled by loads."""
    head = _cache_declarations(cached, 16) + [
        "const %s row = blockIdx.y;" % index,
        "const bool row_ok = true;",
        "const %s col_begin = (%s)blockIdx.x * CHUNK;  // blockIdx.x: the block's rank in its cluster" % (index, index),
        "const %s col_end = col_begin + CHUNK < %d ? col_begin + CHUNK : %d;" % (index, ncols, ncols),
        "const %s kw_row_base = row * %d + col_begin;" % (index, ncols)]
    head += ["kw_fill_row(kw_cache%d, in%d + kw_row_base, (int)(col_end - col_begin));" % (k, k) for k, _, _ in cached]
    head.append("__syncthreads();")
    exchange = split.Exchange(
        store=lambda slot, value: "kw_part_store(&kw_slots[%d], %s);" % (slot, value),
        load=lambda ctype, slot: "kw_cluster_load<%s>(&kw_slots[%d], q)" % (ctype, slot),
        barrier=lambda phase: "kw_cluster_sync();", parts="CLUSTER")
    lines = head + split.phases(clines, index, exchange)
    if cstores:
        lines += ["if (blockIdx.x == 0 && threadIdx.x == 0) {"] + ["  " + s for s in cstores] + ["}"]
    lines.append("kw_cluster_sync();  // the other blocks may still read this one's partials")
    statics = "%s  __shared__ unsigned long long kw_slots[%d];\n" % (smem, max(split.slot_count(clines), 1))
    return _wrap(signature, statics, lines)


def _cache_declarations(cached, align):
    """Each cached input's part of the row in dynamic shared memory, one after another, each
    16-byte aligned."""
    decls = ["extern __shared__ __align__(%d) unsigned char kw_dyn[];" % align]
    offset = "0"
    for k, storage, size in cached:
        decls.append("%s* kw_cache%d = reinterpret_cast<%s*>(kw_dyn + %s);" % (storage, k, storage, offset))
        offset = "%s + ((CHUNK * %d + 15) / 16) * 16" % (offset, size)
    return decls


def _wrap(signature, statics, lines):
    """The kernel with KW_ROW_LOAD reading the row's copy, restored after it."""
    signature = signature.replace("__global__ void", "__global__ void __cluster_dims__(CLUSTER, 1, 1)", 1)
    return ("#undef KW_ROW_LOAD\n#define KW_ROW_LOAD(k, off) %s\n"
            "%s {\n%s%s\n}\n#undef KW_ROW_LOAD\n#define KW_ROW_LOAD(k, off) %s\n") % (
        _CACHE_LOAD, signature, statics, textwrap.indent("\n".join(lines), "  "), vectors.GLOBAL_LOAD)


def _chunk(ncols, size, step=16 * PIECES):
    """Columns a block: a multiple of ``step`` (16 * PIECES: every piece of a row starts
    16-byte aligned when the row does)."""
    return -(-(-(-ncols // size)) // step) * step


def _piece(chunk):
    return chunk // PIECES


def _shared_bytes(chunk, cached_sizes):
    return sum(-(-chunk * size // 16) * 16 for size in cached_sizes)


def body(signature, smem, clines, cstores, nrows, ncols, index, cached, vector=None):
    """The pipelined kernel's source (where ``pipelined``); ``signature``'s last parameter is
    the workspace, ``kw_ws``. ``cached``: (input index, storage type, element bytes) of each
    input read at the row's flat offset, held in shared memory. ``vector``: where VEC columns a thread are possible,
    ``(aligned, column_loop)``: the condition on the outputs' pointers, and
    ``column_loop(loop, start, end, source, row_load)`` (vectors.column_loop for this kernel)."""
    loops = [seg for seg in clines if isinstance(seg, kernels.Loop)]
    slots = max(split.slot_count(clines), 1)
    # Bulk copies move multiples of 16 bytes from 16-byte aligned addresses: the rows are such
    # multiples (``pipelined``), so every piece is; the base pointers are checked at run time.
    bulk = " && ".join("((reinterpret_cast<unsigned long long>(in%d) & 15ull) == 0)" % k for k, _, _ in cached)
    head = _cache_declarations(cached, 128) + [
        "const bool row_ok = true;",
        "const %s col_begin = (%s)blockIdx.x * CHUNK;  // blockIdx.x: the block's rank in its cluster" % (index, index),
        "const %s col_end = col_begin + CHUNK < %d ? col_begin + CHUNK : %d;" % (index, ncols, ncols),
        "const bool kw_bulk = %s;" % bulk,
        "const bool kw_vectors = %s;" % ("VEC > 1 && %s" % vector[0] if vector else "false"),
        "unsigned int* kw_rows_taken = reinterpret_cast<unsigned int*>(kw_ws);",
        "if (threadIdx.x == 0) {",
        "  for (int p = 0; p < %d; ++p) kw_mbar_init(&kw_mbar[p]);" % PIECES,
        "  kw_mbar_init_fence();",
        "  if (blockIdx.x == 0) kw_part_store(&kw_next[1], (long long)atomicAdd(kw_rows_taken, 1u));",
        "}",
        "kw_cluster_sync();",
        "long long kw_row = kw_cluster_load<long long>(&kw_next[1], 0);",
        "if (kw_row < %d) {" % nrows]
    head += ["  " + line for line in _fill_all(cached, "kw_row", ncols)]
    head.append("}")
    exchange = split.Exchange(
        store=lambda slot, value: "kw_part_store(&kw_slots[kw_buf * %d + %d], %s);" % (slots, slot, value),
        load=lambda ctype, slot: "kw_cluster_load<%s>(&kw_slots[kw_buf * %d + %d], q)" % (ctype, slots, slot),
        barrier=lambda phase: "kw_cluster_sync();", parts="CLUSTER")
    last = len(loops) - 1

    def columns(seg, begin, end):
        """The loop over [begin, end): VEC columns a thread where the pointers allow."""
        scalar = accumulate.column_for(seg, index, begin + " + threadIdx.x", end)
        if not vector:
            return scalar
        wide = vector[1](seg, begin + " + threadIdx.x * VEC", end,
                         lambda k: "kw_cache%d + (kw_base - kw_row_base)" % k, _CACHE_LOAD)
        return ["if (kw_vectors) {"] + ["  " + s for s in wide] + ["} else {"] + ["  " + s for s in scalar] + ["}"]

    def column_loop(seg, k):
        if k == 0:
            return _first_loop(seg, index, columns)
        if k == last:
            return _last_loop(seg, index, cached, nrows, ncols, columns)
        return accumulate.column_declarations(seg) + columns(seg, "col_begin", "col_end")

    row = ["const unsigned int kw_buf = kw_it & 1u;",
           "const %s row = (%s)kw_row;" % (index, index),
           "const %s kw_row_base = row * %d + col_begin;" % (index, ncols),
           "long long kw_next_row = 0;",
           # Read by the other blocks after the first reduction's barrier, before the last loop.
           "if (blockIdx.x == 0 && threadIdx.x == 0) kw_part_store(&kw_next[kw_buf], (long long)atomicAdd(kw_rows_taken, 1u));"]
    row += split.phases(clines, index, exchange, column_loop)
    if cstores:
        row += ["if (blockIdx.x == 0 && threadIdx.x == 0) {"] + ["  " + s for s in cstores] + ["}"]
    row.append("kw_row = kw_next_row;")
    lines = head + ["for (unsigned int kw_it = 0; kw_row < %d; ++kw_it) {" % nrows] + ["  " + s for s in row] + [
        "}", "kw_cluster_sync();  // the other blocks may still read this one's partials"]
    statics = ("%s  __shared__ unsigned long long kw_slots[%d];\n  __shared__ unsigned long long kw_mbar[%d];\n"
               "  __shared__ unsigned long long kw_next[2];\n") % (smem, 2 * slots, PIECES)
    return _wrap(signature, statics, lines)


def _piece_bounds(index, piece):
    return ["const %s kw_pb = col_begin + (%s)(%s) * PIECE;" % (index, index, piece),
            "const %s kw_pe = kw_pb + PIECE < col_end ? kw_pb + PIECE : col_end;" % index]


def _first_loop(seg, index, columns):
    """Each piece as soon as its copy has landed."""
    return accumulate.column_declarations(seg) + [
        "for (int kw_p = 0; kw_p < %d; ++kw_p) {" % PIECES] + ["  " + s for s in _piece_bounds(index, "kw_p") + [
            "kw_mbar_wait(&kw_mbar[kw_p], kw_it & 1u);"] + columns(seg, "kw_pb", "kw_pe")
    ] + ["}"]


def _last_loop(seg, index, cached, nrows, ncols, columns):
    """Each piece, then, once every thread is done with it, its refill from the next row."""
    return accumulate.column_declarations(seg) + [
        "kw_next_row = kw_cluster_load<long long>(&kw_next[kw_buf], 0);",
        "for (int kw_p = 0; kw_p < %d; ++kw_p) {" % PIECES] + ["  " + s for s in _piece_bounds(index, "kw_p")
                                                             + columns(seg, "kw_pb", "kw_pe")
                                                             + ["__syncthreads();",
                                                                "if (kw_next_row < %d) {" % nrows]
                                                             + ["  " + s for s in _fill(cached, "kw_next_row", "kw_p", ncols)]
                                                             + ["}"]] + ["}"]


def _fill_all(cached, row, ncols):
    return ["for (int kw_p = 0; kw_p < %d; ++kw_p) {" % PIECES] + ["  " + s for s in _fill(cached, row, "kw_p", ncols)] + ["}"]


def _fill(cached, row, piece, ncols):
    """Piece ``piece`` of row ``row`` into shared memory, signalled on its mbarrier; called by
    every thread of the block (the fallback's loads take them all)."""
    total = " + ".join("%d" % size for _, _, size in cached)
    lines = ["const long long kw_fb = (long long)col_begin + (long long)(%s) * PIECE;" % piece,
             "const long long kw_fe = kw_fb + PIECE < (long long)col_end ? kw_fb + PIECE : (long long)col_end;",
             "const int kw_n = kw_fe > kw_fb ? (int)(kw_fe - kw_fb) : 0;",
             "const long long kw_src = (long long)(%s) * %d + kw_fb;" % (row, ncols),
             "if (kw_bulk) {",
             "  if (threadIdx.x == 0) {",
             "    kw_async_fence();",
             "    kw_mbar_expect(&kw_mbar[%s], (unsigned int)kw_n * (%s));" % (piece, total),
             "    if (kw_n > 0) {"]
    lines += ["      kw_bulk_copy(kw_cache%d + (kw_fb - col_begin), in%d + kw_src, (unsigned int)kw_n * %d, &kw_mbar[%s]);"
              % (k, k, size, piece) for k, _, size in cached]
    lines += ["    }", "  }", "} else {"]
    lines += ["  if (kw_n > 0) kw_fill_row(kw_cache%d + (kw_fb - col_begin), in%d + kw_src, kw_n);" % (k, k)
              for k, _, _ in cached]
    lines += ["  __syncthreads();", "  if (threadIdx.x == 0) kw_mbar_arrive(&kw_mbar[%s]);" % piece, "}"]
    return ["{"] + ["  " + s for s in lines] + ["}"]


def storage(arg):
    """(storage type, element bytes) of a kernel input."""
    return dialects.STORAGE_TYPES[arg.dtype], arg.dtype.itemsize

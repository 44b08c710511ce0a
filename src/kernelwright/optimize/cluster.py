"""The cluster-rows template: a row read from memory once, however many loops walk it.

The rows template walks a row once per dependent reduction and once more to write a
full-shape output (layer norm: statistics, then the normalized row), so a row too long for
the caches is read from memory two or three times. Here a Hopper thread-block cluster of
CLUSTER blocks holds the row: block ``rank`` copies columns [rank * CHUNK, (rank + 1) * CHUNK)
of each input read at the row's flat offset into its shared memory once, every loop then
reads that copy (``KW_ROW_LOAD``), and the blocks exchange their partial results through
distributed shared memory, waiting at the cluster's barrier instead of the split template's
global one. Up to 8 blocks of about 200 KB: rows of up to about 1.6 MB of such inputs.
"""

import textwrap

from . import dialects, kernels, split
from .ir import Launch

# A block's shared memory for its part of the row: an H100 block may opt in to 227 KB; the
# rest is left to the statically declared reduction scratch.
SMEM_BUDGET = 200 * 1024
# Rows whose inputs are smaller than this are left to the rows template, whose later loops
# should find them in L1/L2 (a threshold chosen, not yet measured on a GPU).
MIN_ROW_BYTES = 48 * 1024
_SIZES = (2, 4, 8)  # cluster sizes every Hopper GPU schedules
_THREADS = (512, 1024)

CUDA_HELPERS = r"""
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
KW_F void kw_cluster_sync() { __cluster_barrier_arrive(); __cluster_barrier_wait(); }
// n elements from global memory into shared (16-byte aligned): 16 bytes a load where the source
// is aligned too, for more bytes in flight from the one block an SM holds (not yet measured).
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
#endif
"""


def applies(clines, cached_bytes_per_col, nrows, ncols, capability):
    """Whether the row is walked more than once and its cached inputs are worth holding."""
    passes = sum(1 for seg in clines if isinstance(seg, kernels.Loop))
    return (capability >= (9, 0) and passes >= 2 and cached_bytes_per_col > 0 and nrows <= 65535
            and cached_bytes_per_col * ncols >= MIN_ROW_BYTES)


def launches(nrows, ncols, cached_sizes):
    """The smallest cluster whose blocks' parts fit SMEM_BUDGET, and the next size up (more
    blocks a row, smaller parts), each with 512 and 1024 threads a block."""
    fitting = [size for size in _SIZES if _shared_bytes(_chunk(ncols, size), cached_sizes) <= SMEM_BUDGET]
    out = []
    for size in fitting[:2]:
        chunk = _chunk(ncols, size)
        for threads in _THREADS:
            out.append(Launch((size, nrows, 1), (threads, 1, 1),
                              (("THREADS", threads), ("CLUSTER", size), ("CHUNK", chunk)),
                              shared=_shared_bytes(chunk, cached_sizes), template="cluster rows"))
    return out


def _chunk(ncols, size):
    """Columns a block: a multiple of 16, so that every part of a row starts 16-byte aligned
    when the row does."""
    return -(-(-(-ncols // size)) // 16) * 16


def _shared_bytes(chunk, cached_sizes):
    return sum(-(-chunk * size // 16) * 16 for size in cached_sizes)


def body(signature, smem, clines, cstores, ncols, index, cached):
    """The kernel's source. ``cached``: (input index, storage type, element bytes) of each input
    read at the row's flat offset, held in shared memory."""
    slots = split.slot_count(clines)
    decls = ["extern __shared__ __align__(16) unsigned char kw_dyn[];"]
    offset = "0"
    for k, storage, size in cached:
        decls.append("%s* kw_cache%d = reinterpret_cast<%s*>(kw_dyn + %s);" % (storage, k, storage, offset))
        offset = "%s + ((CHUNK * %d + 15) / 16) * 16" % (offset, size)
    head = decls + [
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
    signature = signature.replace("__global__ void", "__global__ void __cluster_dims__(CLUSTER, 1, 1)", 1)
    statics = "%s  __shared__ unsigned long long kw_slots[%d];\n" % (smem, max(slots, 1))
    return ("#undef KW_ROW_LOAD\n#define KW_ROW_LOAD(k, off) kw_load(kw_cache##k[(off) - kw_row_base])\n"
            "%s {\n%s%s\n}\n#undef KW_ROW_LOAD\n#define KW_ROW_LOAD(k, off) kw_load(in##k[off])\n") % (
        signature, statics, textwrap.indent("\n".join(lines), "  "))


def storage(arg):
    """(storage type, element bytes) of a kernel input."""
    return dialects.STORAGE_TYPES[arg.dtype], arg.dtype.itemsize

// Long rows read from DRAM once: the row engine's path for rows whose second read would miss
// L2 (kw/cuda/rows.cuh decides).
//
// A row is cut into chunks. Folding a chunk (its state, written to a workspace slot, then the
// row's counter incremented) and applying it (merge the row's chunk states, write the chunk)
// are separate work items, taken by the blocks from one queue in a fixed order: the fold of
// chunk c + lag comes right after the apply of chunk c. A chunk is therefore read the second
// time about `lag` chunks after the first, while it is still in L2, and only the lag window
// (a row plus what the blocks hold in flight) has to fit there. The first read asks L2 to keep
// the lines, the second read and the write ask it to evict them first.
//
// An apply waits (spinning on the row's counter) until every chunk of its row is folded. Items
// leave the queue in order and every fold of a row precedes its applies there (lag >= chunks
// a row), so each fold an apply waits for is held by a running block that does not wait:
// the kernel cannot deadlock whether or not all its blocks are resident.
//
// A row's state is merged from the chunk states in the same order by every block, so all
// chunks of a row use identical coefficients and results do not depend on the schedule.
#pragma once

#include <cstdint>

#include "kw/cuda/rows_tiles.cuh"

namespace kw {
namespace cuda {

int sm_count();

namespace rows {

// Vectors a thread reads per chunk, and blocks per SM: together about 17 MB in flight on an
// H100/H200, which the 2026-11-26 sweep found the fastest (fewer blocks or smaller chunks
// left the memory system idle between a block's items).
constexpr int kStreamVecs = 8;
constexpr int kStreamBlocksPerSm = 4;

// Vectors of every operand loaded before any is used: a thread's whole share of a chunk where
// registers allow (an item ends in a block-wide merge, so this is the block's memory-level
// parallelism), fewer for ops that also read column parameters, which would otherwise spill.
template <typename Op>
constexpr int stream_unroll() {
  return kStreamVecs / (Op::kIn + Op::kCols) > 0 ? kStreamVecs / (Op::kIn + Op::kCols) : 1;
}

struct StreamPlan {
  int64_t chunk;   // elements a chunk, a whole number of vectors
  int64_t cpr;     // chunks a row
  int64_t total;   // chunks
  int64_t lag;     // chunks folded ahead of the first apply
  int64_t grid;
};

template <typename T>
StreamPlan stream_plan(const RowArgs& a) {
  StreamPlan p{};
  p.chunk = int64_t{kBlock} * vec_len<T>() * kStreamVecs;
  p.cpr = ceil_div(a.len, p.chunk);
  p.total = a.rows * p.cpr;
  p.grid = int64_t{sm_count()} * kStreamBlocksPerSm;
  // A row plus half the blocks' items: the study's best window (benchmarks/NOTES.md, 28);
  // the whole grid's items made it 19 MB, past what L2 keeps under the streaming writes.
  p.lag = p.cpr + p.grid / 2;
  if (p.lag > p.total) p.lag = p.total;
  return p;
}

// Workspace: the chunk states, then the rows' counters and the queue head (zeroed per launch).
template <typename Op>
int64_t stream_state_bytes(const StreamPlan& p) {
  return (p.total * static_cast<int64_t>(sizeof(typename Op::State)) + 255) / 256 * 256;
}

// The queue head is 8-byte aligned after the counters.
inline int64_t stream_counter_words(const RowArgs& a) { return (a.rows + 1) / 2 * 2 + 2; }

template <typename Op>
int64_t stream_workspace_bytes(const RowArgs& a, const StreamPlan& p) {
  return stream_state_bytes<Op>(p) + stream_counter_words(a) * static_cast<int64_t>(sizeof(unsigned));
}

__device__ __forceinline__ unsigned load_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// A state written by another block, read from L2 (not a stale L1 line), word by word.
template <typename S>
__device__ __forceinline__ S load_state(const S* p) {
  static_assert(sizeof(S) % 4 == 0, "state must be a whole number of words");
  constexpr int W = sizeof(S) / 4;
  unsigned w[W];
  const unsigned* src = reinterpret_cast<const unsigned*>(p);
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = __ldcg(src + i);
  S s;
  memcpy(&s, w, sizeof(S));
  return s;
}

// Item t of the queue: the first `lag` are folds; then applies and folds alternate (apply c,
// fold c + lag); the last `lag` are applies.
__device__ __forceinline__ void stream_item(int64_t t, int64_t total, int64_t lag, bool& fold,
                                            int64_t& c) {
  if (t < lag) {
    fold = true;
    c = t;
    return;
  }
  const int64_t u = t - lag, mixed = 2 * (total - lag);
  if (u < mixed) {
    fold = u & 1;
    c = fold ? lag + u / 2 : u / 2;
  } else {
    fold = false;
    c = (total - lag) + (u - mixed);
  }
}

template <typename T, typename Op>
__global__ void __launch_bounds__(kBlock, kStreamBlocksPerSm)
    streamed_kernel(Op op, Ptrs<T> p, int64_t len, StreamPlan sp, typename Op::State* states,
                    unsigned* counters, unsigned* queue) {
  using A = acc_t<T>;
  using S = typename Op::State;
  __shared__ S partial[kWarps];
  __shared__ unsigned long long item;
  int64_t cached = -1;  // the row whose coefficients c holds
  A c[kCoefs];
  for (;;) {
    if (threadIdx.x == 0) item = atomicAdd(reinterpret_cast<unsigned long long*>(queue), 1ull);
    __syncthreads();
    const int64_t t = static_cast<int64_t>(item);
    __syncthreads();  // item is rewritten by the next dequeue
    if (t >= 2 * sp.total) return;
    bool is_fold;
    int64_t ch;
    stream_item(t, sp.total, sp.lag, is_fold, ch);
    const int64_t r = ch / sp.cpr, k = ch % sp.cpr;
    const int64_t begin = k * sp.chunk;
    const int64_t end = begin + sp.chunk < len ? begin + sp.chunk : len;
    A rs[2];
    load_row_in(p, r, rs);
    if (is_fold) {
      S st = fold<T, Op, true, Hint::kKeep, stream_unroll<Op>()>(op, p, r * len, begin, end, rs,
                                                                 threadIdx.x, kBlock);
      st = group_merge<kBlock>(st, partial);
      if (threadIdx.x == 0) {
        states[ch] = st;
        __threadfence();
        atomicAdd(counters + r, 1u);
      }
      continue;
    }
    if (r != cached) {
      if (threadIdx.x == 0)
        while (load_acquire(counters + r) < static_cast<unsigned>(sp.cpr)) __nanosleep(100);
      __syncthreads();
      S st = S::empty();
      for (int64_t s = threadIdx.x; s < sp.cpr; s += kBlock) st.merge(load_state(states + r * sp.cpr + s));
      st = group_merge<kBlock>(st, partial);
      op.finish(st, rs, c);
      cached = r;
    }
    if (k == 0 && threadIdx.x == 0) save<T, Op>(p, r, c);
    apply<T, Op, true, Hint::kStream, stream_unroll<Op>()>(op, p, r * len, begin, end, rs, c,
                                                           threadIdx.x, kBlock);
  }
}

// Launches the streamed kernel with a workspace of stream_workspace_bytes. Vectorized rows only.
template <typename T, typename Op>
cudaError_t launch_streamed(const Op& op, const Ptrs<T>& p, const RowArgs& a, void* workspace,
                            cudaStream_t s) {
  const StreamPlan sp = stream_plan<T>(a);
  auto* states = static_cast<typename Op::State*>(workspace);
  auto* counters = reinterpret_cast<unsigned*>(static_cast<char*>(workspace) +
                                               stream_state_bytes<Op>(sp));
  const int64_t words = stream_counter_words(a);
  unsigned* queue = counters + words - 2;
  const cudaError_t err = cudaMemsetAsync(counters, 0, words * sizeof(unsigned), s);
  if (err != cudaSuccess) return err;
  streamed_kernel<T, Op><<<static_cast<unsigned>(sp.grid), kBlock, 0, s>>>(op, p, a.len, sp, states,
                                                                         counters, queue);
  return cudaSuccess;
}

}  // namespace rows
}  // namespace cuda
}  // namespace kw

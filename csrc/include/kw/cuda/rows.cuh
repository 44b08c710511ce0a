// The CUDA engine of the row ops (kw/row_functors.h): a reduction along each row, then an
// elementwise pass over the row that uses its result.
//
// Rows up to kWarpRowMax long take one warp each; longer ones a whole block. Each thread
// folds its share of the row into the op's state, the group merges the states, every thread
// turns the merged state into the row's coefficients and re-reads its share to write the
// output: two reads and one write per element, the second read mostly from cache for rows
// that fit in L1/L2. When rows are too few to fill the device, each row is split into chunks:
// one kernel writes each chunk's state to a small workspace ([rows, splits] states), a second
// merges a row's states and writes the chunk. Where the data the second read comes back for
// (the rows in flight, or the whole tensor when split) is more than half of L2, that read
// would come from DRAM: such rows, if vectorized, go to the streamed kernel
// (kw/cuda/rows_streamed.cuh), which reads them from DRAM once. Loads are 16-byte vectors
// when every operand is 16-byte aligned and rows are a whole number of vectors, scalars
// otherwise.
//
// Softmax over a dim that is not the last reduces down columns: one thread per column.
// LayerNorm and RMSNorm backwards also reduce grad_weight/grad_bias down the columns.
#pragma once

#include <cstdint>

#include "kw/cuda/rows_streamed.cuh"
#include "kw/cuda/rows_tiles.cuh"

namespace kw {
namespace cuda {

int sm_count();
int l2_cache_bytes();

namespace rows {

struct Plan {
  int group;       // threads per row: 32 or kBlock
  bool vec;        // 16-byte loads and stores
  bool streamed;   // rows_streamed.cuh instead of the two-read kernels
  int64_t splits;  // chunks per row
  int64_t chunk;   // elements per chunk, a whole number of vectors
  dim3 grid;       // x: split, y: row (or group of rows), grid-stride beyond 65535
};

inline bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

template <typename T, typename Op>
Plan make_plan(const RowArgs& a) {
  constexpr int V = vec_len<T>();
  Plan p{};
  p.vec = a.len % V == 0 && aligned16(a.out);
  for (int k = 0; k < Op::kIn; ++k) p.vec = p.vec && aligned16(a.in[k]);
  for (int k = 0; k < Op::kCols; ++k) p.vec = p.vec && aligned16(a.col[k]);  // null is aligned
  p.group = a.len <= kWarpRowMax ? 32 : kBlock;
  const int64_t row_blocks = ceil_div(a.rows, kBlock / p.group);
  p.splits = 1;
  p.chunk = a.len;
  if (p.group == kBlock) {
    // Enough blocks for a few waves; every thread keeps at least a few vectors per chunk.
    const int64_t target = int64_t{sm_count()} * 8;
    const int64_t max_splits = ceil_div(a.len, int64_t{kBlock} * V * 4);
    int64_t s = ceil_div(target, row_blocks);
    s = s < max_splits ? s : max_splits;
    if (s > 1) {
      p.chunk = ceil_div(ceil_div(a.len, s), V) * V;
      p.splits = ceil_div(a.len, p.chunk);
    }
    const int64_t resident_rows = int64_t{sm_count()} * (2048 / kBlock);
    const int64_t reread_rows = p.splits > 1 || a.rows < resident_rows ? a.rows : resident_rows;
    const int64_t reread_bytes = reread_rows * a.len * Op::kIn * static_cast<int64_t>(sizeof(T));
    p.streamed = p.vec && a.inner == 1 && reread_bytes > int64_t{l2_cache_bytes()} / 2;
  }
  p.grid = dim3(static_cast<unsigned>(p.splits),
                static_cast<unsigned>(row_blocks < 65535 ? row_blocks : 65535), 1);
  return p;
}

// Whole rows: a warp (Group 32, kBlock / 32 rows per block) or the block per row.
template <typename T, typename Op, int Group, bool Vectorized>
__global__ void __launch_bounds__(kBlock)
    rows_kernel(Op op, Ptrs<T> p, int64_t rows, int64_t len) {
  using A = acc_t<T>;
  using S = typename Op::State;
  constexpr int kRowsPerBlock = kBlock / Group;
  __shared__ S partial[kWarps];
  const int lane = threadIdx.x % Group;
  for (int64_t base = static_cast<int64_t>(blockIdx.y) * kRowsPerBlock; base < rows;
       base += static_cast<int64_t>(gridDim.y) * kRowsPerBlock) {
    const int64_t r = base + threadIdx.x / Group;
    if (r < rows) {  // uniform across the group: it shares r
      A rs[2];
      load_row_in(p, r, rs);
      S st = fold<T, Op, Vectorized>(op, p, r * len, 0, len, rs, lane, Group);
      st = group_merge<Group>(st, partial);
      A c[kCoefs];
      op.finish(st, rs, c);
      if (lane == 0) save<T, Op>(p, r, c);
      apply<T, Op, Vectorized>(op, p, r * len, 0, len, rs, c, lane, Group);
    }
  }
}

// Split rows, first pass: the state of chunk blockIdx.x of each row.
template <typename T, typename Op, bool Vectorized>
__global__ void __launch_bounds__(kBlock)
    split_fold_kernel(Op op, Ptrs<T> p, int64_t rows, int64_t len, int64_t splits, int64_t chunk,
                      typename Op::State* ws) {
  using A = acc_t<T>;
  using S = typename Op::State;
  __shared__ S partial[kWarps];
  const int64_t split = blockIdx.x;
  const int64_t begin = split * chunk;
  const int64_t end = begin + chunk < len ? begin + chunk : len;
  for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    A rs[2];
    load_row_in(p, r, rs);
    S st = fold<T, Op, Vectorized>(op, p, r * len, begin, end, rs, threadIdx.x, kBlock);
    st = group_merge<kBlock>(st, partial);
    if (threadIdx.x == 0) ws[r * splits + split] = st;
  }
}

// Split rows, second pass: every block merges all of its row's chunk states (in the same
// order, so the chunks of a row agree) and writes its own chunk.
template <typename T, typename Op, bool Vectorized>
__global__ void __launch_bounds__(kBlock)
    split_apply_kernel(Op op, Ptrs<T> p, int64_t rows, int64_t len, int64_t splits, int64_t chunk,
                       const typename Op::State* ws) {
  using A = acc_t<T>;
  using S = typename Op::State;
  __shared__ S partial[kWarps];
  const int64_t split = blockIdx.x;
  const int64_t begin = split * chunk;
  const int64_t end = begin + chunk < len ? begin + chunk : len;
  for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    S st = S::empty();
    for (int64_t s = threadIdx.x; s < splits; s += kBlock) st.merge(ws[r * splits + s]);
    st = group_merge<kBlock>(st, partial);
    A rs[2];
    load_row_in(p, r, rs);
    A c[kCoefs];
    op.finish(st, rs, c);
    if (split == 0 && threadIdx.x == 0) save<T, Op>(p, r, c);
    apply<T, Op, Vectorized>(op, p, r * len, begin, end, rs, c, threadIdx.x, kBlock);
  }
}

// A [rows, len, inner] tensor reduced down len: one thread per (row, inner) column; adjacent
// threads read adjacent columns, so loads coalesce. Ops with per-column parameters or per-row
// statistics do not come here.
template <typename T, typename Op>
__global__ void __launch_bounds__(kBlock)
    columns_kernel(Op op, Ptrs<T> p, int64_t rows, int64_t len, int64_t inner) {
  using A = acc_t<T>;
  const A rs[2] = {A(0), A(0)};
  for (int64_t o = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; o < rows * inner;
       o += static_cast<int64_t>(gridDim.x) * kBlock) {
    const int64_t base = (o / inner) * len * inner + o % inner;
    typename Op::State st = Op::State::empty();
#pragma unroll 4
    for (int64_t j = 0; j < len; ++j) {
      Elems<A, 1> e;
#pragma unroll
      for (int k = 0; k < Op::kIn; ++k) e.in[k][0] = to_acc(p.in[k][base + j * inner]);
      op.accumulate(st, e, rs);
    }
    A c[kCoefs];
    op.finish(st, rs, c);
#pragma unroll 4
    for (int64_t j = 0; j < len; ++j) {
      Elems<A, 1> e;
#pragma unroll
      for (int k = 0; k < Op::kIn; ++k) e.in[k][0] = to_acc(p.in[k][base + j * inner]);
      A out[1];
      op.apply(e, rs, c, out);
      p.out[base + j * inner] = from_acc<T>(out[0]);
    }
  }
}

template <typename T, typename Op, bool Vectorized>
void launch_rows_kernels(const Op& op, const Ptrs<T>& p, const RowArgs& a, const Plan& pl,
                         void* workspace, cudaStream_t s) {
  using S = typename Op::State;
  if (pl.splits > 1) {
    S* ws = static_cast<S*>(workspace);
    split_fold_kernel<T, Op, Vectorized><<<pl.grid, kBlock, 0, s>>>(op, p, a.rows, a.len, pl.splits,
                                                              pl.chunk, ws);
    split_apply_kernel<T, Op, Vectorized><<<pl.grid, kBlock, 0, s>>>(op, p, a.rows, a.len, pl.splits,
                                                               pl.chunk, ws);
  } else if (pl.group == 32) {
    rows_kernel<T, Op, 32, Vectorized><<<pl.grid, kBlock, 0, s>>>(op, p, a.rows, a.len);
  } else {
    rows_kernel<T, Op, kBlock, Vectorized><<<pl.grid, kBlock, 0, s>>>(op, p, a.rows, a.len);
  }
}

// Bytes of the split states run_rows needs for these arguments (0: none).
template <typename T, typename Op>
int64_t rows_workspace_bytes(const RowArgs& a) {
  if (a.inner != 1 || a.rows == 0) return 0;
  const Plan pl = make_plan<T, Op>(a);
  if (pl.streamed) return stream_workspace_bytes<Op>(a, stream_plan<T>(a));
  return pl.splits > 1 ? a.rows * pl.splits * static_cast<int64_t>(sizeof(typename Op::State)) : 0;
}

// Launches op over a's rows (or columns) with a workspace of rows_workspace_bytes.
template <typename T, typename Op>
cudaError_t run_rows(const Op& op, const RowArgs& a, void* workspace, cudaStream_t s) {
  if (a.rows == 0) return cudaSuccess;
  const Ptrs<T> p(a);
  if (a.inner != 1) {
    const int64_t columns = a.rows * a.inner;
    const int64_t cap = int64_t{sm_count()} * 32;
    const int64_t blocks = ceil_div(columns, kBlock);
    columns_kernel<T, Op><<<static_cast<unsigned>(blocks < cap ? blocks : cap), kBlock, 0, s>>>(
        op, p, a.rows, a.len, a.inner);
    return cudaSuccess;
  }
  const Plan pl = make_plan<T, Op>(a);
  if (pl.streamed) return launch_streamed<T>(op, p, a, workspace, s);
  if (pl.vec)
    launch_rows_kernels<T, Op, true>(op, p, a, pl, workspace, s);
  else
    launch_rows_kernels<T, Op, false>(op, p, a, pl, workspace, s);
  return cudaSuccess;
}

// grad_weight[j] = sum_r grad[r, j] * xhat[r, j] and grad_bias[j] = sum_r grad[r, j] for the
// norms (a.in: grad, x; a.row_in: mean, rstd, or rstd alone for rms_norm; a.col_out: the
// outputs, either may be null). Adjacent threads take adjacent columns; when columns are too
// few to fill the device, blockIdx.y takes a slice of rows and the slices' sums land in the
// workspace ([splits][2][len] accumulators) for param_grad_finish_kernel.
template <typename T>
__global__ void __launch_bounds__(kBlock)
    param_grad_kernel(const T* __restrict__ grad, const T* __restrict__ x,
                      const acc_t<T>* mean, const acc_t<T>* rstd, int64_t rows, int64_t len,
                      int64_t rows_per_split, acc_t<T>* partial, T* gw, T* gb) {
  using A = acc_t<T>;
  const int64_t r0 = static_cast<int64_t>(blockIdx.y) * rows_per_split;
  const int64_t r1 = r0 + rows_per_split < rows ? r0 + rows_per_split : rows;
  for (int64_t j = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; j < len;
       j += static_cast<int64_t>(gridDim.x) * kBlock) {
    A sw = A(0), sb = A(0);
#pragma unroll 4
    for (int64_t r = r0; r < r1; ++r) {
      const A g = to_acc(grad[r * len + j]);
      const A xv = to_acc(x[r * len + j]);
      sw += g * ((mean ? xv - mean[r] : xv) * rstd[r]);
      sb += g;
    }
    if (gridDim.y == 1) {
      if (gw) gw[j] = from_acc<T>(sw);
      if (gb) gb[j] = from_acc<T>(sb);
    } else {
      partial[(static_cast<int64_t>(blockIdx.y) * 2) * len + j] = sw;
      partial[(static_cast<int64_t>(blockIdx.y) * 2 + 1) * len + j] = sb;
    }
  }
}

template <typename T>
__global__ void __launch_bounds__(kBlock)
    param_grad_finish_kernel(const acc_t<T>* __restrict__ partial, int64_t splits, int64_t len,
                             T* gw, T* gb) {
  using A = acc_t<T>;
  for (int64_t j = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; j < len;
       j += static_cast<int64_t>(gridDim.x) * kBlock) {
    A sw = A(0), sb = A(0);
    for (int64_t s = 0; s < splits; ++s) {
      sw += partial[(s * 2) * len + j];
      sb += partial[(s * 2 + 1) * len + j];
    }
    if (gw) gw[j] = from_acc<T>(sw);
    if (gb) gb[j] = from_acc<T>(sb);
  }
}

struct ParamGradPlan {
  int64_t col_blocks, splits, rows_per_split;
};

inline ParamGradPlan param_grad_plan(const RowArgs& a) {
  ParamGradPlan p{};
  const int64_t cap = int64_t{sm_count()} * 32;
  p.col_blocks = ceil_div(a.len, kBlock);
  if (p.col_blocks > cap) p.col_blocks = cap;
  // At least 32 rows a slice, so the partial sums stay a small fraction of the input.
  const int64_t target = int64_t{sm_count()} * 8;
  const int64_t max_splits = ceil_div(a.rows, 32);
  p.splits = ceil_div(target, p.col_blocks);
  p.splits = p.splits < max_splits ? p.splits : max_splits;
  if (p.splits < 1) p.splits = 1;
  p.rows_per_split = ceil_div(a.rows, p.splits);
  p.splits = ceil_div(a.rows, p.rows_per_split);
  return p;
}

inline bool wants_param_grads(const RowArgs& a) {
  return a.col_out[0] != nullptr || a.col_out[1] != nullptr;
}

template <typename T>
int64_t param_grad_workspace_bytes(const RowArgs& a) {
  if (!wants_param_grads(a) || a.rows == 0) return 0;
  const ParamGradPlan pl = param_grad_plan(a);
  return pl.splits > 1 ? pl.splits * 2 * a.len * static_cast<int64_t>(sizeof(acc_t<T>)) : 0;
}

template <typename T>
void run_param_grads(const RowArgs& a, void* workspace, cudaStream_t s) {
  if (!wants_param_grads(a) || a.rows == 0 || a.len == 0) return;
  using A = acc_t<T>;
  const ParamGradPlan pl = param_grad_plan(a);
  const Ptrs<T> p(a);
  const A* mean = a.row_in[1] ? p.row_in[0] : nullptr;
  const A* rstd = a.row_in[1] ? p.row_in[1] : p.row_in[0];
  T* gw = static_cast<T*>(a.col_out[0]);
  T* gb = static_cast<T*>(a.col_out[1]);
  A* partial = static_cast<A*>(workspace);
  const dim3 grid(static_cast<unsigned>(pl.col_blocks), static_cast<unsigned>(pl.splits), 1);
  param_grad_kernel<T><<<grid, kBlock, 0, s>>>(p.in[0], p.in[1], mean, rstd, a.rows, a.len,
                                               pl.rows_per_split, partial, gw, gb);
  if (pl.splits > 1)
    param_grad_finish_kernel<T><<<static_cast<unsigned>(pl.col_blocks), kBlock, 0, s>>>(
        partial, pl.splits, a.len, gw, gb);
}

inline int64_t align_up(int64_t bytes) { return (bytes + 255) / 256 * 256; }

// The body of every row-op launcher: with `bytes` set, the workspace query (the split states,
// then any column partial sums); otherwise the launch.
template <typename T, typename Op>
cudaError_t query_or_run(const Op& op, const RowArgs& a, void* workspace, int64_t* bytes,
                         void* stream) {
  const int64_t row_bytes = align_up(rows_workspace_bytes<T, Op>(a));
  if (bytes) {
    *bytes = row_bytes + param_grad_workspace_bytes<T>(a);
    return cudaSuccess;
  }
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  const cudaError_t err = run_rows<T>(op, a, workspace, s);
  if (err != cudaSuccess) return err;
  run_param_grads<T>(a, static_cast<char*>(workspace) + row_bytes, s);
  return cudaGetLastError();
}

}  // namespace rows
}  // namespace cuda
}  // namespace kw

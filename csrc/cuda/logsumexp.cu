// logsumexp over one axis of a [outer, reduce, inner] view, reading the input once.
//
// Rows (reduce axis dense, inner == 1): a group of threads (a warp for short rows, the whole
// block for long ones) streams a row with 16-byte loads and folds values into an online
// (max, sum-of-exp) state. When rows are too few to fill the device, each row is split into
// chunks whose states land in a small workspace and are merged by a second kernel.
// Columns (any other strides): one thread per output folds its column, split the same way.
#include <cstdint>

#include "kw/cuda/dtype.cuh"
#include "kw/launchers.h"
#include "kw/logsumexp_state.h"

namespace kw {
namespace cuda {

int sm_count();

namespace {

constexpr int kBlock = 256;
constexpr int kUnroll = 4;

// The exponentials only feed a sum whose rounding dominates, so the fast exp2 unit serves.
template <typename A>
using State = LseState<A, FastMath>;

struct Plan {
  bool rows;
  int group;       // threads per row (rows mode)
  int64_t splits;  // chunks per output
  int64_t chunk;   // elements of the reduce axis per chunk
  dim3 grid;
};

template <typename T>
constexpr int vec_len() { return 16 / sizeof(T); }

Plan make_plan(const ReduceGeometry& g, int sms, int elem_size) {
  Plan p{};
  const int64_t outputs = g.outer * g.inner;
  const int64_t target_blocks = int64_t{sms} * 8;
  const int vec = 16 / elem_size;
  p.rows = g.inner == 1 && g.stride_reduce == 1;
  if (p.rows) {
    p.group = g.reduce <= 4096 ? 32 : kBlock;
    const int64_t rows_per_block = kBlock / p.group;
    const int64_t row_blocks = ceil_div(g.outer, rows_per_block);
    // Each thread keeps at least two vectors' worth of a chunk so the split stays worth it.
    const int64_t max_splits = ceil_div(g.reduce, int64_t{p.group} * vec * 2);
    p.splits = ceil_div(target_blocks, row_blocks);
    p.splits = p.splits < max_splits ? p.splits : max_splits;
    if (p.splits < 1) p.splits = 1;
    p.chunk = ceil_div(ceil_div(g.reduce, p.splits), vec) * vec;
    p.splits = ceil_div(g.reduce, p.chunk > 0 ? p.chunk : 1);
    if (p.splits < 1) p.splits = 1;
    p.grid = dim3(static_cast<unsigned>(p.splits), 1, 1);
    p.grid.y = static_cast<unsigned>(row_blocks < 65535 ? row_blocks : 65535);
  } else {
    p.group = 1;
    const int64_t col_blocks = ceil_div(outputs, kBlock);
    const int64_t max_splits = ceil_div(g.reduce, 16);
    p.splits = ceil_div(target_blocks, col_blocks);
    p.splits = p.splits < max_splits ? p.splits : max_splits;
    if (p.splits < 1) p.splits = 1;
    if (p.splits > 65535) p.splits = 65535;
    p.chunk = ceil_div(g.reduce, p.splits);
    p.splits = ceil_div(g.reduce, p.chunk > 0 ? p.chunk : 1);
    if (p.splits < 1) p.splits = 1;
    const int64_t gx = col_blocks < 0x7fffffff ? col_blocks : 0x7fffffff;
    p.grid = dim3(static_cast<unsigned>(gx), static_cast<unsigned>(p.splits), 1);
  }
  return p;
}

template <typename A>
__device__ __forceinline__ State<A> shfl_down(const State<A>& s, int offset) {
  State<A> o;
  o.m = __shfl_down_sync(0xffffffffu, s.m, offset);
  o.s = __shfl_down_sync(0xffffffffu, s.s, offset);
  o.flags = __shfl_down_sync(0xffffffffu, s.flags, offset);
  return o;
}

template <typename A>
__device__ __forceinline__ State<A> warp_merge(State<A> s) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) s.merge(shfl_down(s, offset));
  return s;
}

template <typename T, typename A>
__device__ __forceinline__ void store_state(const State<A>& st, T* out, State<A>* ws,
                                            int64_t output, int64_t splits, int64_t split) {
  if (splits == 1)
    out[output] = from_acc<T>(st.result());
  else
    ws[output * splits + split] = st;
}

// One chunk [begin, end) of a dense row: scalar head up to 16-byte alignment, vector body,
// scalar tail. Thread `lane` of `group` threads takes every group-th element or vector.
template <typename T, typename A>
__device__ __forceinline__ State<A> fold_dense(const T* row, int64_t begin, int64_t end,
                                                  int lane, int group) {
  constexpr int V = vec_len<T>();
  using V_t = Vec<T, V>;
  State<A> st = State<A>::empty();
  const T* p = row + begin;
  int64_t n = end - begin;
  const int64_t head_raw = (16 - static_cast<int64_t>(reinterpret_cast<uintptr_t>(p) % 16)) % 16 /
                           static_cast<int64_t>(sizeof(T));
  const int64_t head = head_raw < n ? head_raw : n;
  if (reinterpret_cast<uintptr_t>(p) % sizeof(T) == 0) {
    for (int64_t i = lane; i < head; i += group) {
      A v[1] = {to_acc(p[i])};
      st.add(v);
    }
    p += head;
    n -= head;
    const V_t* pv = reinterpret_cast<const V_t*>(p);
    const int64_t nvec = n / V;
    int64_t j = lane;
    for (; j + int64_t{kUnroll - 1} * group < nvec; j += int64_t{kUnroll} * group) {
      V_t x[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) x[u] = pv[j + int64_t{u} * group];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        A v[V];
#pragma unroll
        for (int e = 0; e < V; ++e) v[e] = to_acc(x[u].v[e]);
        st.add(v);
      }
    }
    for (; j < nvec; j += group) {
      const V_t x = pv[j];
      A v[V];
#pragma unroll
      for (int e = 0; e < V; ++e) v[e] = to_acc(x.v[e]);
      st.add(v);
    }
    for (int64_t i = nvec * V + lane; i < n; i += group) {
      A v[1] = {to_acc(p[i])};
      st.add(v);
    }
  }
  return st;
}

template <typename T, int Group>
__global__ void __launch_bounds__(kBlock)
    lse_rows_kernel(const T* __restrict__ x, T* __restrict__ out, State<acc_t<T>>* ws,
                    ReduceGeometry g, int64_t splits, int64_t chunk) {
  using A = acc_t<T>;
  constexpr int kRowsPerBlock = kBlock / Group;
  const int lane = threadIdx.x % Group;
  const int64_t split = blockIdx.x;
  const int64_t begin = split * chunk;
  const int64_t end_raw = begin + chunk;
  const int64_t end = end_raw < g.reduce ? end_raw : g.reduce;
  __shared__ State<A> partial[kBlock / 32];
  for (int64_t row_base = static_cast<int64_t>(blockIdx.y) * kRowsPerBlock; row_base < g.outer;
       row_base += static_cast<int64_t>(gridDim.y) * kRowsPerBlock) {
    const int64_t row = row_base + threadIdx.x / Group;
    State<A> st = State<A>::empty();
    if (row < g.outer) st = fold_dense<T, A>(x + row * g.stride_outer, begin, end, lane, Group);
    st = warp_merge(st);
    if (Group == 32) {
      if (lane == 0 && row < g.outer) store_state(st, out, ws, row, splits, split);
    } else {
      const int warp = threadIdx.x / 32;
      if (threadIdx.x % 32 == 0) partial[warp] = st;
      __syncthreads();
      if (warp == 0) {
        st = threadIdx.x < kBlock / 32 ? partial[threadIdx.x] : State<A>::empty();
        st = warp_merge(st);
        if (threadIdx.x == 0 && row < g.outer) store_state(st, out, ws, row, splits, split);
      }
      __syncthreads();
    }
  }
}

template <typename T>
__global__ void __launch_bounds__(kBlock)
    lse_columns_kernel(const T* __restrict__ x, T* __restrict__ out, State<acc_t<T>>* ws,
                       ReduceGeometry g, int64_t splits, int64_t chunk) {
  using A = acc_t<T>;
  const int64_t outputs = g.outer * g.inner;
  const int64_t split = blockIdx.y;
  const int64_t begin = split * chunk;
  const int64_t end_raw = begin + chunk;
  const int64_t end = end_raw < g.reduce ? end_raw : g.reduce;
  for (int64_t o = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; o < outputs;
       o += static_cast<int64_t>(gridDim.x) * kBlock) {
    const int64_t outer = o / g.inner;
    const int64_t inner = o - outer * g.inner;
    const T* col = x + outer * g.stride_outer + inner * g.stride_inner;
    State<A> st = State<A>::empty();
    int64_t r = begin;
    for (; r + kUnroll <= end; r += kUnroll) {
      A v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) v[u] = to_acc(col[(r + u) * g.stride_reduce]);
      st.add(v);
    }
    for (; r < end; ++r) {
      A v[1] = {to_acc(col[r * g.stride_reduce])};
      st.add(v);
    }
    store_state(st, out, ws, o, splits, split);
  }
}

template <typename T>
__global__ void lse_merge_kernel(const State<acc_t<T>>* __restrict__ ws, T* __restrict__ out,
                                 int64_t outputs, int64_t splits) {
  using A = acc_t<T>;
  const int64_t warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= outputs) return;
  State<A> st = State<A>::empty();
  for (int64_t s = lane; s < splits; s += 32) st.merge(ws[warp * splits + s]);
  st = warp_merge(st);
  if (lane == 0) out[warp] = from_acc<T>(st.result());
}

// grad_x[o, r, i] = grad[o, i] * exp(x[o, r, i] - result[o, i]), the formula torch uses, so
// NaN and infinity propagate the same way. grad_x is contiguous in [outer, reduce, inner] order.
template <typename T>
__global__ void __launch_bounds__(kBlock)
    lse_backward_kernel(const T* __restrict__ grad, const T* __restrict__ x,
                        const T* __restrict__ result, T* __restrict__ grad_x, ReduceGeometry g) {
  using A = acc_t<T>;
  const int64_t n = g.outer * g.reduce * g.inner;
  for (int64_t l = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; l < n;
       l += static_cast<int64_t>(gridDim.x) * kBlock) {
    const int64_t i = l % g.inner;
    const int64_t rest = l / g.inner;
    const int64_t r = rest % g.reduce;
    const int64_t o = rest / g.reduce;
    const int64_t out_idx = o * g.inner + i;
    const A xv = to_acc(x[o * g.stride_outer + r * g.stride_reduce + i * g.stride_inner]);
    grad_x[l] = from_acc<T>(to_acc(grad[out_idx]) * math_for<T>::exp(xv - to_acc(result[out_idx])));
  }
}

// Dense rows: a block streams one chunk of one row; grad and result are read once per block.
template <typename T>
__global__ void __launch_bounds__(kBlock)
    lse_backward_rows_kernel(const T* __restrict__ grad, const T* __restrict__ x,
                             const T* __restrict__ result, T* __restrict__ grad_x,
                             ReduceGeometry g, int64_t chunk) {
  using A = acc_t<T>;
  constexpr int V = vec_len<T>();
  using V_t = Vec<T, V>;
  const int64_t row = blockIdx.y + static_cast<int64_t>(blockIdx.z) * gridDim.y;
  if (row >= g.outer) return;
  const A gr = to_acc(grad[row]);
  const A res = to_acc(result[row]);
  const int64_t begin = static_cast<int64_t>(blockIdx.x) * chunk;
  const int64_t end = begin + chunk < g.reduce ? begin + chunk : g.reduce;
  const V_t* xv = reinterpret_cast<const V_t*>(x + row * g.stride_outer + begin);
  V_t* gv = reinterpret_cast<V_t*>(grad_x + row * g.reduce + begin);
  const int64_t nvec = (end - begin) / V;
  for (int64_t j = threadIdx.x; j < nvec; j += kBlock) {
    const V_t in = xv[j];
    V_t o;
#pragma unroll
    for (int e = 0; e < V; ++e) o.v[e] = from_acc<T>(gr * math_for<T>::exp(to_acc(in.v[e]) - res));
    gv[j] = o;
  }
}

int elem_size(DType dtype) {
  switch (dtype) {
    case DType::Float32: return 4;
    case DType::Float64: return 8;
    default: return 2;
  }
}

}  // namespace

int64_t logsumexp_workspace_bytes(DType dtype, const ReduceGeometry& g) {
  const Plan p = make_plan(g, sm_count(), elem_size(dtype));
  if (p.splits == 1) return 0;
  const int64_t state =
      dtype == DType::Float64 ? sizeof(State<double>) : sizeof(State<float>);
  return g.outer * g.inner * p.splits * state;
}

int logsumexp_forward(DType dtype, const void* x, void* out, const ReduceGeometry& g,
                      void* workspace, void* stream) {
  if (g.outer * g.inner == 0) return cudaSuccess;
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  return dispatch_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    using St = State<acc_t<T>>;
    const Plan p = make_plan(g, sm_count(), sizeof(T));
    const T* xp = static_cast<const T*>(x);
    T* op = static_cast<T*>(out);
    St* ws = static_cast<St*>(workspace);
    if (p.rows && p.group == 32)
      lse_rows_kernel<T, 32><<<p.grid, kBlock, 0, s>>>(xp, op, ws, g, p.splits, p.chunk);
    else if (p.rows)
      lse_rows_kernel<T, kBlock><<<p.grid, kBlock, 0, s>>>(xp, op, ws, g, p.splits, p.chunk);
    else
      lse_columns_kernel<T><<<p.grid, kBlock, 0, s>>>(xp, op, ws, g, p.splits, p.chunk);
    if (p.splits > 1) {
      const int64_t outputs = g.outer * g.inner;
      const int64_t blocks = ceil_div(outputs * 32, kBlock);
      lse_merge_kernel<T><<<static_cast<unsigned>(blocks), kBlock, 0, s>>>(ws, op, outputs,
                                                                           p.splits);
    }
    return cudaGetLastError();
  });
}

int logsumexp_backward(DType dtype, const void* grad, const void* x, const void* result,
                       void* grad_x, const ReduceGeometry& g, void* stream) {
  const int64_t n = g.outer * g.reduce * g.inner;
  if (n == 0) return cudaSuccess;
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  return dispatch_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    constexpr int V = vec_len<T>();
    const T* gp = static_cast<const T*>(grad);
    const T* xp = static_cast<const T*>(x);
    const T* rp = static_cast<const T*>(result);
    T* gxp = static_cast<T*>(grad_x);
    const bool dense_rows = g.inner == 1 && g.stride_reduce == 1 && g.reduce % V == 0 &&
                            g.stride_outer % V == 0 &&
                            reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                            reinterpret_cast<uintptr_t>(grad_x) % 16 == 0;
    if (dense_rows) {
      const int64_t chunk = int64_t{kBlock} * V * kUnroll;
      const int64_t rows_y = g.outer < 65535 ? g.outer : 65535;
      const dim3 grid(static_cast<unsigned>(ceil_div(g.reduce, chunk)),
                      static_cast<unsigned>(rows_y),
                      static_cast<unsigned>(ceil_div(g.outer, rows_y)));
      lse_backward_rows_kernel<T><<<grid, kBlock, 0, s>>>(gp, xp, rp, gxp, g, chunk);
    } else {
      const int64_t cap = int64_t{sm_count()} * 32;
      const int64_t want = ceil_div(n, kBlock);
      lse_backward_kernel<T><<<static_cast<unsigned>(want < cap ? want : cap), kBlock, 0, s>>>(
          gp, xp, rp, gxp, g);
    }
    return cudaGetLastError();
  });
}

}  // namespace cuda
}  // namespace kw

// The row engine's building blocks (kw/cuda/rows.cuh, kw/cuda/rows_streamed.cuh): operands
// loaded a tile of N elements at a time, folded into an op's state, merged across a warp or a
// block, and mapped through the op's apply. Vectorized tiles are 16-byte loads and stores; a
// cache hint marks the ones the streamed kernel reads twice (kKeep: stay in L2 until the second
// read) and the ones read or written for the last time (kStream: first to be evicted).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kw/cuda/dtype.cuh"
#include "kw/row_functors.h"
#include "kw/row_ops.h"

namespace kw {
namespace cuda {
namespace rows {

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int64_t kWarpRowMax = 1024;

template <typename T>
constexpr int vec_len() { return 16 / static_cast<int>(sizeof(T)); }

// Vectors each thread keeps in flight: about 64 bytes per row-shaped input.
template <typename Op>
constexpr int unroll() { return Op::kIn == 1 ? 4 : 2; }

template <typename T>
using Ptrs = RowPtrs<T, acc_t<T>>;

enum class Hint { kNormal, kKeep, kStream };

// Cache hints need sm_80; older targets read and write with the default policy.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define KW_ROWS_NO_HINTS 1
#endif

// The L2 eviction policy of a hint (createpolicy is a register move; no memory access).
template <Hint H>
__device__ __forceinline__ uint64_t l2_policy() {
  uint64_t pol = 0;
#ifndef KW_ROWS_NO_HINTS
  if (H == Hint::kKeep)
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
  else
    asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
#endif
  return pol;
}

template <Hint H, typename V>
__device__ __forceinline__ V load16(const V* p) {
  static_assert(sizeof(V) == 16, "hinted loads are 16-byte vectors");
#ifdef KW_ROWS_NO_HINTS
  return *p;
#else
  if (H == Hint::kNormal) return *p;
  uint32_t w[4];
  asm volatile("ld.global.nc.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
               : "l"(p), "l"(l2_policy<H>()));
  V v;
  memcpy(&v, w, 16);
  return v;
#endif
}

template <Hint H, typename V>
__device__ __forceinline__ void store16(V* p, const V& v) {
  static_assert(sizeof(V) == 16, "hinted stores are 16-byte vectors");
#ifdef KW_ROWS_NO_HINTS
  *p = v;
#else
  if (H == Hint::kNormal) {
    *p = v;
    return;
  }
  uint32_t w[4];
  memcpy(w, &v, 16);
  asm volatile("st.global.L2::cache_hint.v4.u32 [%0], {%1, %2, %3, %4}, %5;"
               :: "l"(p), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "l"(l2_policy<H>())
               : "memory");
#endif
}

// Warp shuffles of a whole state, word by word: the states are plain structs of 4- and 8-byte
// fields, so any of them travels this way.
template <typename S>
__device__ __forceinline__ S shfl_down(const S& s, int offset) {
  static_assert(sizeof(S) % 4 == 0, "state must be a whole number of words");
  constexpr int W = sizeof(S) / 4;
  unsigned w[W];
  memcpy(w, &s, sizeof(S));
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], offset);
  S o;
  memcpy(&o, w, sizeof(S));
  return o;
}

template <typename S>
__device__ __forceinline__ S shfl_from_lane0(const S& s) {
  constexpr int W = sizeof(S) / 4;
  unsigned w[W];
  memcpy(w, &s, sizeof(S));
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = __shfl_sync(0xffffffffu, w[i], 0);
  S o;
  memcpy(&o, w, sizeof(S));
  return o;
}

// Merges the states of a group (a warp, or the block) and gives every thread of it the same
// result, merged in the same order, so all threads of a row use identical coefficients.
// Every thread of the group must call it; `partial` is kWarps states of shared memory.
template <int Group, typename S>
__device__ __forceinline__ S group_merge(S s, S* partial) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) s.merge(shfl_down(s, offset));
  if (Group == 32) return shfl_from_lane0(s);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = s;
  __syncthreads();
  S total = partial[0];
#pragma unroll
  for (int w = 1; w < kWarps; ++w) total.merge(partial[w]);
  __syncthreads();  // partial is reused by the next row
  return total;
}

// Loads the N elements of every operand at column j of the row that starts at offset `row`
// (the column parameters only where Cols). The hint applies to the row-shaped inputs; column
// parameters are read by every row and keep the default policy.
template <typename T, typename Op, int N, bool Vectorized, Hint H = Hint::kNormal, bool Cols = true>
__device__ __forceinline__ void load(const Ptrs<T>& p, int64_t row, int64_t j,
                                     Elems<acc_t<T>, N>& e) {
#pragma unroll
  for (int k = 0; k < Op::kIn; ++k) {
    if constexpr (Vectorized) {
      const Vec<T, N> v = load16<H>(reinterpret_cast<const Vec<T, N>*>(p.in[k] + row + j));
#pragma unroll
      for (int i = 0; i < N; ++i) e.in[k][i] = to_acc(v.v[i]);
    } else {
#pragma unroll
      for (int i = 0; i < N; ++i) e.in[k][i] = to_acc(p.in[k][row + j + i]);
    }
  }
#pragma unroll
  for (int k = 0; k < (Cols ? Op::kCols : 0); ++k) {
    if (p.col[k] == nullptr) {
#pragma unroll
      for (int i = 0; i < N; ++i) e.col[k][i] = acc_t<T>(0);
    } else if (Vectorized) {
      const Vec<T, N> v = *reinterpret_cast<const Vec<T, N>*>(p.col[k] + j);
#pragma unroll
      for (int i = 0; i < N; ++i) e.col[k][i] = to_acc(v.v[i]);
    } else {
#pragma unroll
      for (int i = 0; i < N; ++i) e.col[k][i] = to_acc(p.col[k][j + i]);
    }
  }
}

template <typename T, int N, bool Vectorized, Hint H = Hint::kNormal>
__device__ __forceinline__ void store(T* out, const acc_t<T> (&o)[N]) {
  if constexpr (Vectorized) {
    Vec<T, N> v;
#pragma unroll
    for (int i = 0; i < N; ++i) v.v[i] = from_acc<T>(o[i]);
    store16<H>(reinterpret_cast<Vec<T, N>*>(out), v);
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) out[i] = from_acc<T>(o[i]);
  }
}

template <typename T>
__device__ __forceinline__ void load_row_in(const Ptrs<T>& p, int64_t r, acc_t<T> (&row)[2]) {
#pragma unroll
  for (int k = 0; k < 2; ++k) row[k] = p.row_in[k] ? p.row_in[k][r] : acc_t<T>(0);
}

// Visits every tile of N elements in columns [begin, end) of the row at offset `row`; thread
// `lane` of `group` takes every group-th tile. U tiles are loaded before any is used, to keep
// loads in flight, and handed together to batch(e, j, step) (e: U tiles' operands, tile u at
// column j + u * step); the tiles left over go one at a time to one(e, j). Vectorized, begin
// and end are whole vectors. Cols: load the column parameters too.
template <typename T, typename Op, bool Vectorized, Hint H, int U, bool Cols = true, typename FB,
          typename F1>
__device__ __forceinline__ void for_tile_batches(const Ptrs<T>& p, int64_t row, int64_t begin,
                                                 int64_t end, int lane, int group, FB&& batch,
                                                 F1&& one) {
  constexpr int N = Vectorized ? vec_len<T>() : 1;
  const int64_t tiles = (end - begin) / N;
  int64_t t = lane;
  for (; t + int64_t{U - 1} * group < tiles; t += int64_t{U} * group) {
    Elems<acc_t<T>, N> e[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      load<T, Op, N, Vectorized, H, Cols>(p, row, begin + (t + int64_t{u} * group) * N, e[u]);
    batch(e, begin + t * N, int64_t{group} * N);
  }
  for (; t < tiles; t += group) {
    Elems<acc_t<T>, N> e;
    load<T, Op, N, Vectorized, H, Cols>(p, row, begin + t * N, e);
    one(e, begin + t * N);
  }
}

// Calls f(e, j) for every tile (see for_tile_batches), e the operands' elements there and j the
// tile's first column.
template <typename T, typename Op, bool Vectorized, Hint H = Hint::kNormal, int U = unroll<Op>(),
          typename F>
__device__ __forceinline__ void for_tiles(const Ptrs<T>& p, int64_t row, int64_t begin,
                                          int64_t end, int lane, int group, F&& f) {
  for_tile_batches<T, Op, Vectorized, H, U>(
      p, row, begin, end, lane, group,
      [&](const auto& e, int64_t j, int64_t step) {
#pragma unroll
        for (int u = 0; u < U; ++u) f(e[u], j + u * step);
      },
      f);
}

// Ops whose accumulate is their state's add() of the first input (kAddsInput) have the U tiles
// a thread loads folded by one add(): one maximum and one rescale (softmax) or one merge
// (Welford) per U tiles instead of per tile, and the exps independent of each other; their
// column parameters (layer_norm's weight and bias) are not read while folding.
template <typename Op, typename = void>
struct adds_input : std::false_type {};
template <typename Op>
struct adds_input<Op, std::void_t<decltype(Op::kAddsInput)>> : std::bool_constant<Op::kAddsInput> {};

template <typename T, typename Op, bool Vectorized, Hint H = Hint::kNormal, int U = unroll<Op>()>
__device__ __forceinline__ typename Op::State fold(const Op& op, const Ptrs<T>& p, int64_t row,
                                                   int64_t begin, int64_t end,
                                                   const acc_t<T> (&rs)[2], int lane, int group) {
  typename Op::State st = Op::State::empty();
  const auto one = [&](const auto& e, int64_t) { op.accumulate(st, e, rs); };
  if constexpr (adds_input<Op>::value) {
    constexpr int N = Vectorized ? vec_len<T>() : 1;
    for_tile_batches<T, Op, Vectorized, H, U, /*Cols=*/false>(
        p, row, begin, end, lane, group,
        [&](const auto& e, int64_t, int64_t) {
          acc_t<T> v[U * N];
#pragma unroll
          for (int u = 0; u < U; ++u)
#pragma unroll
            for (int i = 0; i < N; ++i) v[u * N + i] = e[u].in[0][i];
          st.add(v);
        },
        one);
  } else {
    for_tiles<T, Op, Vectorized, H, U>(p, row, begin, end, lane, group, one);
  }
  return st;
}

// H hints the reads of the row-shaped inputs; the output is written with kStream whenever the
// reads are hinted.
template <typename T, typename Op, bool Vectorized, Hint H = Hint::kNormal, int U = unroll<Op>()>
__device__ __forceinline__ void apply(const Op& op, const Ptrs<T>& p, int64_t row, int64_t begin,
                                      int64_t end, const acc_t<T> (&rs)[2],
                                      const acc_t<T> (&c)[kCoefs], int lane, int group) {
  constexpr int N = Vectorized ? vec_len<T>() : 1;
  constexpr Hint W = H == Hint::kNormal ? Hint::kNormal : Hint::kStream;
  for_tiles<T, Op, Vectorized, H, U>(p, row, begin, end, lane, group, [&](const auto& e, int64_t j) {
    acc_t<T> o[N];
    op.apply(e, rs, c, o);
    store<T, N, Vectorized, W>(p.out + row + j, o);
  });
}

template <typename T, typename Op>
__device__ __forceinline__ void save(const Ptrs<T>& p, int64_t r, const acc_t<T> (&c)[kCoefs]) {
#pragma unroll
  for (int k = 0; k < Op::kSave; ++k) p.row_out[k][r] = c[k];
}

}  // namespace rows
}  // namespace cuda
}  // namespace kw

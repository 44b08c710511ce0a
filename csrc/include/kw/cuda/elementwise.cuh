// Elementwise kernels over ElementwiseArgs: a 16-byte vectorised path for dense operands and an
// index-decomposing path for broadcast and strided ones. Every op instantiates these with its
// functor from kw/functors.h.
#pragma once

#include <cstdint>

#include "kw/cuda/dtype.cuh"
#include "kw/elementwise_args.h"

namespace kw {
namespace cuda {

// Threads per block on the strided path; the dense path's shape is VecConfig's (below).
constexpr int kThreads = 256;

// Which inputs are one-element scalars: bit k of Scalars when the kernel is compiled for that
// pattern (so a scalar operand takes no registers or predicated loads), args.is_scalar when
// Scalars is kRuntimeScalars.
constexpr int kRuntimeScalars = -1;

template <int Scalars, int NIn, int NOut>
__device__ __forceinline__ bool is_scalar(const ElementwiseArgs<NIn, NOut>& args, int k) {
  return Scalars == kRuntimeScalars ? args.is_scalar[k] : ((Scalars >> k) & 1) != 0;
}

template <typename T, int Scalars, int NIn, int NOut>
__device__ __forceinline__ void load_scalar_operands(const ElementwiseArgs<NIn, NOut>& args,
                                                     acc_t<T> (&scalars)[NIn]) {
#pragma unroll
  for (int k = 0; k < NIn; ++k) {
    scalars[k] = 0;
    if (is_scalar<Scalars>(args, k)) {
      scalars[k] = args.scalar_ptr[k] ? to_acc(*static_cast<const T*>(args.scalar_ptr[k]))
                                      : static_cast<acc_t<T>>(args.scalar_value[k]);
    }
  }
}

template <typename T, int Scalars, int NIn, int NOut, typename F>
__device__ __forceinline__ void apply_at(const ElementwiseArgs<NIn, NOut>& args, const F& f,
                                         const acc_t<T> (&scalars)[NIn], int64_t i) {
  acc_t<T> in[NIn];
  acc_t<T> out[NOut];
#pragma unroll
  for (int k = 0; k < NIn; ++k)
    in[k] = is_scalar<Scalars>(args, k) ? scalars[k] : to_acc(static_cast<const T*>(args.in[k])[i]);
  f(in, out, math_for<T>{});
#pragma unroll
  for (int k = 0; k < NOut; ++k) static_cast<T*>(args.out[k])[i] = from_acc<T>(out[k]);
}

// Dense operands: each thread moves Unroll 16-byte vectors per operand, all loads issued
// before any arithmetic. The sub-vector tail is done by the last block.
template <int Threads, int Unroll, typename T, int Scalars, int NIn, int NOut, typename F>
__global__ void __launch_bounds__(Threads)
    vectorized_kernel(const ElementwiseArgs<NIn, NOut> args, const F f) {
  constexpr int V = 16 / sizeof(T);
  using V_t = Vec<T, V>;
  using A = acc_t<T>;
  A scalars[NIn];
  load_scalar_operands<T, Scalars>(args, scalars);

  const int64_t nvec = args.numel / V;
  const int64_t first = static_cast<int64_t>(blockIdx.x) * Threads * Unroll + threadIdx.x;
  V_t x[Unroll][NIn];
#pragma unroll
  for (int u = 0; u < Unroll; ++u) {
    const int64_t idx = first + static_cast<int64_t>(u) * Threads;
#pragma unroll
    for (int k = 0; k < NIn; ++k)
      if (idx < nvec && !is_scalar<Scalars>(args, k)) x[u][k] = static_cast<const V_t*>(args.in[k])[idx];
  }
#pragma unroll
  for (int u = 0; u < Unroll; ++u) {
    const int64_t idx = first + static_cast<int64_t>(u) * Threads;
    if (idx >= nvec) break;
    V_t y[NOut];
#pragma unroll
    for (int e = 0; e < V; ++e) {
      A in[NIn];
      A out[NOut];
#pragma unroll
      for (int k = 0; k < NIn; ++k) in[k] = is_scalar<Scalars>(args, k) ? scalars[k] : to_acc(x[u][k].v[e]);
      f(in, out, math_for<T>{});
#pragma unroll
      for (int k = 0; k < NOut; ++k) y[k].v[e] = from_acc<T>(out[k]);
    }
#pragma unroll
    for (int k = 0; k < NOut; ++k) static_cast<V_t*>(args.out[k])[idx] = y[k];
  }
  if (blockIdx.x == gridDim.x - 1) {
    const int64_t i = nvec * V + threadIdx.x;
    if (i < args.numel) apply_at<T, Scalars>(args, f, scalars, i);
  }
}

// Broadcast or strided operands: decompose the linear index over sizes[] (innermost first).
// Index is int32_t when every offset fits, since 64-bit division costs several times more.
template <typename T, typename Index, int NIn, int NOut, typename F>
__global__ void __launch_bounds__(kThreads)
    strided_kernel(const ElementwiseArgs<NIn, NOut> args, const F f) {
  using A = acc_t<T>;
  constexpr int K = NIn + NOut;
  A scalars[NIn];
  load_scalar_operands<T, kRuntimeScalars>(args, scalars);
  const int64_t step = static_cast<int64_t>(gridDim.x) * kThreads;
  for (int64_t linear = static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x;
       linear < args.numel; linear += step) {
    Index rem = static_cast<Index>(linear);
    Index off[K];
#pragma unroll
    for (int k = 0; k < K; ++k) off[k] = 0;
    for (int d = 0; d < args.ndim; ++d) {
      const Index size = static_cast<Index>(args.sizes[d]);
      const Index q = rem / size;
      const Index digit = rem - q * size;
      rem = q;
#pragma unroll
      for (int k = 0; k < K; ++k) off[k] += digit * static_cast<Index>(args.strides[k][d]);
    }
    A in[NIn];
    A out[NOut];
#pragma unroll
    for (int k = 0; k < NIn; ++k)
      in[k] = args.is_scalar[k] ? scalars[k]
                                : to_acc(static_cast<const T*>(args.in[k])[off[NOut + k]]);
    f(in, out, math_for<T>{});
#pragma unroll
    for (int k = 0; k < NOut; ++k) static_cast<T*>(args.out[k])[off[k]] = from_acc<T>(out[k]);
  }
}

template <typename T, int NIn, int NOut>
bool vector_aligned(const ElementwiseArgs<NIn, NOut>& args) {
  bool ok = true;
  for (int k = 0; k < NOut; ++k) ok &= reinterpret_cast<uintptr_t>(args.out[k]) % 16 == 0;
  for (int k = 0; k < NIn; ++k)
    ok &= args.is_scalar[k] || reinterpret_cast<uintptr_t>(args.in[k]) % 16 == 0;
  return ok;
}

int sm_count();

// From a sweep on an H200 (scripts/elementwise_variants.cu, benchmarks/NOTES.md, change 10):
// small blocks with 2 vectors per thread kept every op and dtype tried at 0.989-1.028 of the
// copy bandwidth; 512 threads x 2 (the earlier choice) gave 0.968-0.976 on the unary ops, and
// deeper unrolling starved 16-bit and three-input kernels of occupancy.
struct VecConfig {
  static constexpr int kThreads = 128;
  static constexpr int kUnroll = 2;
};

// Binary ops get a kernel per scalar pattern: multiplying bf16 by a scalar flagged at run time
// took 1.79 ms at 4096x393216 (H200, L2 flushed); compiled for the pattern, 1.67-1.70 ms, and
// back to back exactly the unary kernels' time. Ops with more inputs read it at run time.
template <int Threads, int Unroll, typename T, int NIn, int NOut, typename F>
void launch_vectorized(const ElementwiseArgs<NIn, NOut>& args, const F& f, cudaStream_t s) {
  constexpr int V = 16 / sizeof(T);
  const int64_t blocks = ceil_div(args.numel / V, int64_t{Threads} * Unroll);
  const unsigned grid = static_cast<unsigned>(blocks > 0 ? blocks : 1);
  int scalars = 0;
  for (int k = 0; k < NIn; ++k) scalars |= args.is_scalar[k] ? 1 << k : 0;
  if constexpr (NIn == 1) {
    vectorized_kernel<Threads, Unroll, T, 0><<<grid, Threads, 0, s>>>(args, f);
  } else if constexpr (NIn == 2) {
    if (scalars == 0)
      vectorized_kernel<Threads, Unroll, T, 0><<<grid, Threads, 0, s>>>(args, f);
    else if (scalars == 1)
      vectorized_kernel<Threads, Unroll, T, 1><<<grid, Threads, 0, s>>>(args, f);
    else
      vectorized_kernel<Threads, Unroll, T, 2><<<grid, Threads, 0, s>>>(args, f);
  } else if (scalars == 0) {
    vectorized_kernel<Threads, Unroll, T, 0><<<grid, Threads, 0, s>>>(args, f);
  } else {
    vectorized_kernel<Threads, Unroll, T, kRuntimeScalars><<<grid, Threads, 0, s>>>(args, f);
  }
}

template <int NIn, int NOut, typename F>
cudaError_t launch_elementwise(const ElementwiseArgs<NIn, NOut>& args, const F& f, void* stream) {
  if (args.numel == 0) return cudaSuccess;
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  return dispatch_dtype(args.dtype, [&](auto tag) {
    using T = decltype(tag);
    if (args.contiguous && vector_aligned<T>(args)) {
      launch_vectorized<VecConfig::kThreads, VecConfig::kUnroll, T>(args, f, s);
    } else {
      // Enough blocks to fill the device several times over; the loop covers the rest.
      const int64_t cap = int64_t{sm_count()} * 32;
      const int64_t want = ceil_div(args.numel, kThreads);
      const unsigned blocks = static_cast<unsigned>(want < cap ? want : cap);
      if (args.use_32bit_index)
        strided_kernel<T, int32_t><<<blocks, kThreads, 0, s>>>(args, f);
      else
        strided_kernel<T, int64_t><<<blocks, kThreads, 0, s>>>(args, f);
    }
    return cudaGetLastError();
  });
}

}  // namespace cuda
}  // namespace kw

// Storage types, their fp32/fp64 accumulator, and the dtype switch shared by the CUDA kernels.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kw/elementwise_args.h"
#include "kw/functors.h"

namespace kw {
namespace cuda {

template <typename T>
struct Acc { using type = float; };
template <>
struct Acc<double> { using type = double; };
template <typename T>
using acc_t = typename Acc<T>::type;

__device__ __forceinline__ float to_acc(float v) { return v; }
__device__ __forceinline__ double to_acc(double v) { return v; }
__device__ __forceinline__ float to_acc(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_acc(__nv_bfloat16 v) { return __bfloat162float(v); }

// fp32 and fp64 results keep libm accuracy; 16-bit ones are rounded far coarser than FastMath errs.
template <typename T>
struct MathFor { using type = AccurateMath; };
template <>
struct MathFor<__half> { using type = FastMath; };
template <>
struct MathFor<__nv_bfloat16> { using type = FastMath; };
template <typename T>
using math_for = typename MathFor<T>::type;

template <typename T>
__device__ __forceinline__ T from_acc(acc_t<T> v) { return static_cast<T>(v); }
template <>
__device__ __forceinline__ __half from_acc<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_acc<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

// Calls fn with a value of the storage type that `dtype` names (only its type matters).
template <typename Fn>
cudaError_t dispatch_dtype(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::Float32: return fn(float{});
    case DType::Float16: return fn(__half{});
    case DType::BFloat16: return fn(__nv_bfloat16{});
    case DType::Float64: return fn(double{});
  }
  return cudaErrorInvalidValue;
}

template <typename T, int N>
struct alignas(sizeof(T) * N) Vec {
  T v[N];
};

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace cuda
}  // namespace kw

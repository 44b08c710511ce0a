// The split of float32 operands for 3xTF32: x = hi + lo with hi and lo both exact in TF32
// (10 mantissa bits), written as the three segments of a 3K inner dimension.
#include <cuda_runtime.h>

#include <cstdint>

#include "kw/gemm.h"

namespace kw {
namespace cuda {

namespace {

__device__ __forceinline__ float round_tf32(float v) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(v));
  return __uint_as_float(r);
}

struct Split {
  float hi, lo;
};

__device__ __forceinline__ Split split(float v) {
  if (!isfinite(v)) return {v, 0.0f};  // inf - inf would turn the small part into NaN
  float hi = round_tf32(v);
  if (isinf(hi)) hi = __uint_as_float(__float_as_uint(v) & ~0x1FFFu);  // rounded past FLT_MAX
  return {hi, round_tf32(v - hi)};
}

// Each thread writes four consecutive columns of all three segments (seg % 4 == 0).
__global__ void split_kernel(const float* __restrict__ x, int64_t rows, int64_t cols,
                             int64_t stride_r, int64_t stride_c, float* __restrict__ out,
                             int64_t seg, bool left) {
  const int64_t quads = seg / 4;
  const int64_t total = rows * quads;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < total;
       i += int64_t{gridDim.x} * blockDim.x) {
    const int64_t r = i / quads;
    const int64_t c0 = (i - r * quads) * 4;
    float4 hi, lo;
    float* h = &hi.x;
    float* l = &lo.x;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int64_t c = c0 + j;
      const Split s = split(c < cols ? x[r * stride_r + c * stride_c] : 0.0f);
      h[j] = s.hi;
      l[j] = s.lo;
    }
    float* row = out + r * 3 * seg + c0;
    *reinterpret_cast<float4*>(row) = hi;
    *reinterpret_cast<float4*>(row + seg) = left ? hi : lo;
    *reinterpret_cast<float4*>(row + 2 * seg) = left ? lo : hi;
  }
}

}  // namespace

int sm_count();

int split_tf32(const float* x, int64_t rows, int64_t cols, int64_t stride_r, int64_t stride_c,
               float* out, int64_t seg, bool left, void* stream) {
  const int64_t total = rows * (seg / 4);
  if (total == 0) return 0;
  constexpr int kThreads = 256;
  int64_t blocks = (total + kThreads - 1) / kThreads;
  const int64_t cap = int64_t{sm_count()} * 16;
  if (blocks > cap) blocks = cap;
  split_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      x, rows, cols, stride_r, stride_c, out, seg, left);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace cuda
}  // namespace kw

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

// For an operand stored transposed (stride_r == 1), e.g. a weight used as x @ w or an
// activation in a weight gradient: a 32x32 tile goes through shared memory so that both the
// reads (along r) and the writes (along c) are coalesced.
constexpr int kTile = 32;

__global__ void split_transposed_kernel(const float* __restrict__ x, int64_t rows, int64_t cols,
                                        int64_t stride_c, float* __restrict__ out, int64_t seg,
                                        bool left) {
  __shared__ float tile[kTile][kTile + 1];  // +1: column reads hit 32 different banks
  const int64_t r0 = int64_t{blockIdx.x} * kTile;
  const int64_t c0 = int64_t{blockIdx.y} * kTile;
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) {
    const int64_t r = r0 + threadIdx.x, c = c0 + j;
    tile[j][threadIdx.x] = r < rows && c < cols ? x[r + c * stride_c] : 0.0f;
  }
  __syncthreads();
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) {
    const int64_t r = r0 + j, c = c0 + threadIdx.x;
    if (r >= rows || c >= seg) continue;
    const Split s = split(tile[threadIdx.x][j]);
    float* row = out + r * 3 * seg + c;
    row[0] = s.hi;
    row[seg] = left ? s.hi : s.lo;
    row[2 * seg] = left ? s.lo : s.hi;
  }
}

}  // namespace

int sm_count();

int split_tf32(const float* x, int64_t rows, int64_t cols, int64_t stride_r, int64_t stride_c,
               float* out, int64_t seg, bool left, void* stream) {
  const int64_t total = rows * (seg / 4);
  if (total == 0) return 0;
  if (stride_r == 1 && stride_c != 1) {
    const int64_t row_tiles = (rows + kTile - 1) / kTile, col_tiles = (seg + kTile - 1) / kTile;
    if (row_tiles < (int64_t{1} << 31) && col_tiles < 65536) {
      split_transposed_kernel<<<dim3(static_cast<unsigned>(row_tiles),
                                     static_cast<unsigned>(col_tiles)),
                                dim3(kTile, 8), 0, static_cast<cudaStream_t>(stream)>>>(
          x, rows, cols, stride_c, out, seg, left);
      return static_cast<int>(cudaGetLastError());
    }
  }
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

// The split of float32 operands for tensor-core GEMMs: x (scaled per row for fp16) = hi + lo,
// both exact in the narrow format, written as the three segments of a 3K inner dimension, or hi
// alone for a single product.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "kw/gemm.h"

namespace kw {
namespace cuda {

int sm_count();

namespace {

__device__ __forceinline__ float round_tf32(float v) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(v));
  return __uint_as_float(r);
}

// TF32 keeps fp32's exponent, so no scaling: 10 + 1 stored bits in hi, 11 more in lo.
struct Tf32Split {
  using T = float;
  static constexpr bool kScaled = false;
  __device__ static void split(float v, float, T& hi, T& lo) {
    if (!isfinite(v)) {  // inf - inf would turn the small part into NaN
      hi = v;
      lo = 0.0f;
      return;
    }
    float h = round_tf32(v);
    if (isinf(h)) h = __uint_as_float(__float_as_uint(v) & ~0x1FFFu);  // rounded past FLT_MAX
    hi = h;
    lo = round_tf32(v - h);
  }
};

// fp16 has TF32's 11 significant bits but a 5-bit exponent: the row is first scaled by a power
// of two (exact) that puts its largest |x| in [2^14, 2^15), below fp16's overflow with the
// largest possible room for the small parts above its subnormals.
struct Fp16Split {
  using T = __half;
  static constexpr bool kScaled = true;
  __device__ static void split(float v, float scale, T& hi, T& lo) {
    if (!isfinite(v)) {
      hi = __float2half_rn(v);
      lo = __float2half_rn(0.0f);
      return;
    }
    const float s = v * scale;
    hi = __float2half_rn(s);
    lo = __float2half_rn(s - __half2float(hi));  // s - hi is exact in fp32
  }
};

// Row exponents: e = floor(log2(max |x|)), clamped so that 2^(14 - e) and its inverse are normal
// floats; a row of zeros (or of non-finite values only) is not scaled.
constexpr int kScaleBias = 14;
constexpr int kMinExponent = -112;

__device__ __forceinline__ float row_scale(unsigned max_bits) {
  const float m = __uint_as_float(max_bits);
  if (!(m > 0.0f)) return 1.0f;
  const int e = max(ilogbf(m), kMinExponent);
  return __uint_as_float(static_cast<unsigned>(127 + kScaleBias - e) << 23);
}

__device__ __forceinline__ float finite_abs(float v) { return isfinite(v) ? fabsf(v) : 0.0f; }

constexpr int kTile = 32;
constexpr int kMaxCols = 256;  // columns per block of the row-maximum kernel

// max |x| of each row into row_max (zeroed), as float bits: non-negative floats order as their
// bits, so atomicMax on unsigned merges the blocks that share a row. Threads along x read
// consecutive addresses in either layout.
__global__ void row_max_kernel(const float* __restrict__ x, int64_t rows, int64_t cols,
                               int64_t stride_r, int64_t stride_c, unsigned* __restrict__ row_max) {
  const int64_t r0 = int64_t{blockIdx.x} * kTile;
  const int64_t c_step = int64_t{gridDim.y} * kMaxCols;
  if (stride_r == 1 && stride_c != 1) {  // rows adjacent in memory: x indexes rows
    __shared__ float part[8][kTile + 1];
    const int64_t r = r0 + threadIdx.x;
    float m = 0.0f;
    for (int64_t c0 = int64_t{blockIdx.y} * kMaxCols; r < rows && c0 < cols; c0 += c_step)
      for (int64_t c = c0 + threadIdx.y; c < min(cols, c0 + kMaxCols); c += blockDim.y)
        m = fmaxf(m, finite_abs(x[r + c * stride_c]));
    part[threadIdx.y][threadIdx.x] = m;
    __syncthreads();
    if (threadIdx.y == 0 && r < rows) {
      for (int j = 1; j < blockDim.y; ++j) m = fmaxf(m, part[j][threadIdx.x]);
      atomicMax(row_max + r, __float_as_uint(m));
    }
    return;
  }
  for (int64_t r = r0 + threadIdx.y; r < min(rows, r0 + kTile); r += blockDim.y) {
    float m = 0.0f;
    for (int64_t c0 = int64_t{blockIdx.y} * kMaxCols; c0 < cols; c0 += c_step)
      for (int64_t c = c0 + threadIdx.x; c < min(cols, c0 + kMaxCols); c += kTile)
        m = fmaxf(m, finite_abs(x[r * stride_r + c * stride_c]));
    for (int off = 16; off > 0; off /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    if (threadIdx.x == 0) atomicMax(row_max + r, __float_as_uint(m));
  }
}

template <class F>
struct alignas(16) Vec {
  static constexpr int kN = 16 / sizeof(typename F::T);
  typename F::T v[kN];
};

// Stores hi and lo at column c of a row as `parts` lays them out.
template <class T>
__device__ __forceinline__ void store_parts(T* row, int64_t seg, SplitParts parts, const T& hi,
                                            const T& lo) {
  row[0] = hi;
  if (parts == SplitParts::kHi) return;
  const bool left = parts == SplitParts::kLeft3;
  row[seg] = left ? hi : lo;
  row[2 * seg] = left ? lo : hi;
}

__host__ __device__ constexpr int64_t segments(SplitParts parts) { return parts == SplitParts::kHi ? 1 : 3; }

// Each thread writes 16 bytes of each segment (seg is a multiple of the count).
template <class F>
__global__ void split_kernel(const float* __restrict__ x, int64_t rows, int64_t cols,
                             int64_t stride_r, int64_t stride_c, const unsigned* __restrict__ row_max,
                             float* __restrict__ inv_scale, typename F::T* __restrict__ out,
                             int64_t seg, SplitParts parts) {
  constexpr int kN = Vec<F>::kN;
  const int64_t vecs = seg / kN;
  const int64_t total = rows * vecs;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < total;
       i += int64_t{gridDim.x} * blockDim.x) {
    const int64_t r = i / vecs;
    const int64_t c0 = (i - r * vecs) * kN;
    float scale = 1.0f;
    if (F::kScaled) {
      scale = row_scale(row_max[r]);
      if (c0 == 0) inv_scale[r] = 1.0f / scale;  // a power of two: exact
    }
    Vec<F> hi, lo;
#pragma unroll
    for (int j = 0; j < kN; ++j) {
      const int64_t c = c0 + j;
      F::split(c < cols ? x[r * stride_r + c * stride_c] : 0.0f, scale, hi.v[j], lo.v[j]);
    }
    store_parts(reinterpret_cast<Vec<F>*>(out + r * segments(parts) * seg + c0), seg / kN, parts,
                hi, lo);
  }
}

// For an operand stored transposed (stride_r == 1), e.g. a weight used as x @ w or an
// activation in a weight gradient: a 32x32 tile goes through shared memory so that both the
// reads (along r) and the writes (along c) are coalesced.
template <class F>
__global__ void split_transposed_kernel(const float* __restrict__ x, int64_t rows, int64_t cols,
                                        int64_t stride_c, const unsigned* __restrict__ row_max,
                                        float* __restrict__ inv_scale,
                                        typename F::T* __restrict__ out, int64_t seg,
                                        SplitParts parts) {
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
    float scale = 1.0f;
    if (F::kScaled) {
      scale = row_scale(row_max[r]);
      if (c == 0) inv_scale[r] = 1.0f / scale;
    }
    typename F::T hi, lo;
    F::split(tile[threadIdx.x][j], scale, hi, lo);
    store_parts(out + r * segments(parts) * seg + c, seg, parts, hi, lo);
  }
}

// fp16 split of rows stored contiguously and short enough for one block's registers: the row's
// maximum and its split come from a single read, where the general path reads x twice. Each
// thread holds 8 consecutive columns per step; one block per row.
constexpr int kResidentChunk = 8;
constexpr int kResidentThreads = 256;
constexpr int64_t kResidentMaxSeg = int64_t{kResidentThreads} * kResidentChunk * 8;

template <int Steps>
__global__ void __launch_bounds__(kResidentThreads)
    split_resident_kernel(const float* __restrict__ x, int64_t cols, int64_t stride_r,
                          bool vector_loads, float* __restrict__ inv_scale,
                          __half* __restrict__ out, int64_t seg, SplitParts parts) {
  using V = Vec<Fp16Split>;
  const int64_t r = blockIdx.x;
  const float* row = x + r * stride_r;
  float v[Steps][kResidentChunk];
  float m = 0.0f;
#pragma unroll
  for (int s = 0; s < Steps; ++s) {
    const int64_t c0 = (int64_t{s} * blockDim.x + threadIdx.x) * kResidentChunk;
    if (vector_loads && c0 + kResidentChunk <= cols) {
      const float4 p = *reinterpret_cast<const float4*>(row + c0);
      const float4 q = *reinterpret_cast<const float4*>(row + c0 + 4);
      v[s][0] = p.x, v[s][1] = p.y, v[s][2] = p.z, v[s][3] = p.w;
      v[s][4] = q.x, v[s][5] = q.y, v[s][6] = q.z, v[s][7] = q.w;
    } else {
#pragma unroll
      for (int j = 0; j < kResidentChunk; ++j) v[s][j] = c0 + j < cols ? row[c0 + j] : 0.0f;
    }
#pragma unroll
    for (int j = 0; j < kResidentChunk; ++j) m = fmaxf(m, finite_abs(v[s][j]));
  }
  __shared__ float warp_max[kResidentThreads / 32];
  for (int off = 16; off > 0; off /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = m;
  __syncthreads();
  for (int w = 0; w < static_cast<int>(blockDim.x / 32); ++w) m = fmaxf(m, warp_max[w]);
  const float scale = row_scale(__float_as_uint(m));
  if (threadIdx.x == 0) inv_scale[r] = 1.0f / scale;
  __half* out_row = out + r * segments(parts) * seg;
#pragma unroll
  for (int s = 0; s < Steps; ++s) {
    const int64_t c0 = (int64_t{s} * blockDim.x + threadIdx.x) * kResidentChunk;
    if (c0 >= seg) continue;  // seg is a multiple of the chunk
    V hi, lo;
#pragma unroll
    for (int j = 0; j < kResidentChunk; ++j) Fp16Split::split(v[s][j], scale, hi.v[j], lo.v[j]);
    store_parts(reinterpret_cast<V*>(out_row + c0), seg / V::kN, parts, hi, lo);
  }
}

int launch_split_resident(const float* x, int64_t rows, int64_t cols, int64_t stride_r,
                          float* inv_scale, void* out, int64_t seg, SplitParts parts,
                          cudaStream_t stream) {
  const int64_t chunks = seg / kResidentChunk;
  const int threads = static_cast<int>(
      chunks >= kResidentThreads ? kResidentThreads : (chunks + 31) / 32 * 32);
  const int64_t steps = (chunks + threads - 1) / threads;
  const bool vector_loads = reinterpret_cast<uintptr_t>(x) % 16 == 0 && stride_r % 4 == 0;
  auto* o = static_cast<__half*>(out);
  const auto grid = static_cast<unsigned>(rows);
#define KW_RESIDENT(S)                                                                         \
  split_resident_kernel<S><<<grid, threads, 0, stream>>>(x, cols, stride_r, vector_loads,      \
                                                         inv_scale, o, seg, parts)
  if (steps <= 1) KW_RESIDENT(1);
  else if (steps <= 2) KW_RESIDENT(2);
  else if (steps <= 4) KW_RESIDENT(4);
  else KW_RESIDENT(8);
#undef KW_RESIDENT
  return static_cast<int>(cudaGetLastError());
}

template <class F>
int launch_split(const float* x, int64_t rows, int64_t cols, int64_t stride_r, int64_t stride_c,
                 const unsigned* row_max, float* inv_scale, void* out, int64_t seg,
                 SplitParts parts, cudaStream_t stream) {
  auto* o = static_cast<typename F::T*>(out);
  if (stride_r == 1 && stride_c != 1) {
    const int64_t row_tiles = (rows + kTile - 1) / kTile, col_tiles = (seg + kTile - 1) / kTile;
    if (row_tiles < (int64_t{1} << 31) && col_tiles < 65536) {
      split_transposed_kernel<F>
          <<<dim3(static_cast<unsigned>(row_tiles), static_cast<unsigned>(col_tiles)),
             dim3(kTile, 8), 0, stream>>>(x, rows, cols, stride_c, row_max, inv_scale, o, seg,
                                          parts);
      return static_cast<int>(cudaGetLastError());
    }
  }
  constexpr int kThreads = 256;
  const int64_t total = rows * (seg / Vec<F>::kN);
  int64_t blocks = (total + kThreads - 1) / kThreads;
  const int64_t cap = int64_t{sm_count()} * 16;
  if (blocks > cap) blocks = cap;
  split_kernel<F><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      x, rows, cols, stride_r, stride_c, row_max, inv_scale, o, seg, parts);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

int split_operand(SplitFormat format, const float* x, int64_t rows, int64_t cols,
                  int64_t stride_r, int64_t stride_c, void* out, int64_t seg, SplitParts parts,
                  float* inv_scale, unsigned* row_max, void* stream) {
  if (rows == 0 || seg == 0) return 0;
  auto s = static_cast<cudaStream_t>(stream);
  if (format == SplitFormat::kTf32)
    return launch_split<Tf32Split>(x, rows, cols, stride_r, stride_c, nullptr, nullptr, out, seg,
                                   parts, s);
  if (stride_c == 1 && seg % kResidentChunk == 0 && seg <= kResidentMaxSeg &&
      rows < (int64_t{1} << 31))
    return launch_split_resident(x, rows, cols, stride_r, inv_scale, out, seg, parts, s);
  cudaError_t err = cudaMemsetAsync(row_max, 0, rows * sizeof(unsigned), s);
  if (err != cudaSuccess) return static_cast<int>(err);
  const int64_t row_tiles = (rows + kTile - 1) / kTile;
  const int64_t col_blocks = (cols + kMaxCols - 1) / kMaxCols;
  if (row_tiles >= (int64_t{1} << 31)) return static_cast<int>(cudaErrorInvalidConfiguration);
  row_max_kernel<<<dim3(static_cast<unsigned>(row_tiles),
                        static_cast<unsigned>(col_blocks < 65535 ? col_blocks : 65535)),
                   dim3(kTile, 8), 0, s>>>(x, rows, cols, stride_r, stride_c, row_max);
  err = cudaGetLastError();
  if (err != cudaSuccess) return static_cast<int>(err);
  return launch_split<Fp16Split>(x, rows, cols, stride_r, stride_c, row_max, inv_scale, out, seg,
                                 parts, s);
}

}  // namespace cuda
}  // namespace kw

// The split of float32 operands for 3-product GEMMs: x (scaled per row for fp16) = hi + lo, both
// exact in the narrow format, written as the three segments of a 3K inner dimension.
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

// Each thread writes 16 bytes of each of the three segments (seg is a multiple of the count).
template <class F>
__global__ void split_kernel(const float* __restrict__ x, int64_t rows, int64_t cols,
                             int64_t stride_r, int64_t stride_c, const unsigned* __restrict__ row_max,
                             float* __restrict__ inv_scale, typename F::T* __restrict__ out,
                             int64_t seg, bool left) {
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
    typename F::T* row = out + r * 3 * seg + c0;
    *reinterpret_cast<Vec<F>*>(row) = hi;
    *reinterpret_cast<Vec<F>*>(row + seg) = left ? hi : lo;
    *reinterpret_cast<Vec<F>*>(row + 2 * seg) = left ? lo : hi;
  }
}

// For an operand stored transposed (stride_r == 1), e.g. a weight used as x @ w or an
// activation in a weight gradient: a 32x32 tile goes through shared memory so that both the
// reads (along r) and the writes (along c) are coalesced.
template <class F>
__global__ void split_transposed_kernel(const float* __restrict__ x, int64_t rows, int64_t cols,
                                        int64_t stride_c, const unsigned* __restrict__ row_max,
                                        float* __restrict__ inv_scale,
                                        typename F::T* __restrict__ out, int64_t seg, bool left) {
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
    typename F::T* row = out + r * 3 * seg + c;
    row[0] = hi;
    row[seg] = left ? hi : lo;
    row[2 * seg] = left ? lo : hi;
  }
}

template <class F>
int launch_split(const float* x, int64_t rows, int64_t cols, int64_t stride_r, int64_t stride_c,
                 const unsigned* row_max, float* inv_scale, void* out, int64_t seg, bool left,
                 cudaStream_t stream) {
  auto* o = static_cast<typename F::T*>(out);
  if (stride_r == 1 && stride_c != 1) {
    const int64_t row_tiles = (rows + kTile - 1) / kTile, col_tiles = (seg + kTile - 1) / kTile;
    if (row_tiles < (int64_t{1} << 31) && col_tiles < 65536) {
      split_transposed_kernel<F>
          <<<dim3(static_cast<unsigned>(row_tiles), static_cast<unsigned>(col_tiles)),
             dim3(kTile, 8), 0, stream>>>(x, rows, cols, stride_c, row_max, inv_scale, o, seg,
                                          left);
      return static_cast<int>(cudaGetLastError());
    }
  }
  constexpr int kThreads = 256;
  const int64_t total = rows * (seg / Vec<F>::kN);
  int64_t blocks = (total + kThreads - 1) / kThreads;
  const int64_t cap = int64_t{sm_count()} * 16;
  if (blocks > cap) blocks = cap;
  split_kernel<F><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      x, rows, cols, stride_r, stride_c, row_max, inv_scale, o, seg, left);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace

int split_operand(SplitFormat format, const float* x, int64_t rows, int64_t cols,
                  int64_t stride_r, int64_t stride_c, void* out, int64_t seg, bool left,
                  float* inv_scale, unsigned* row_max, void* stream) {
  if (rows == 0 || seg == 0) return 0;
  auto s = static_cast<cudaStream_t>(stream);
  if (format == SplitFormat::kTf32)
    return launch_split<Tf32Split>(x, rows, cols, stride_r, stride_c, nullptr, nullptr, out, seg,
                                   left, s);
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
                                 left, s);
}

}  // namespace cuda
}  // namespace kw

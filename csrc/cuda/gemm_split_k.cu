// One-pass TF32 GEMM for products with few output tiles and a long k (say 256 x 256 outputs
// over k = 131072), where a tile-per-block GEMM leaves most SMs idle and cuBLAS measured at
// about twice the time to read the operands once (docs/linear.md).
//
// The k axis is cut into as many splits as fill the GPU; each block multiplies one 128 x 128
// output tile over one split with mma.sync (TF32 in, fp32 out), its operands streamed through a
// cp.async ring, and writes its partial tile to a workspace; a second kernel sums the splits in a
// fixed order (deterministic) and applies bias and activation. The blocks of one split's tiles
// are adjacent in launch order, so an operand panel two tiles share is read from DRAM about once.
// b is read as it is stored, k-major or n-major (torch.matmul's right operand): both layouts get
// a padded shared-memory row that makes every fragment load conflict-free.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "kw/activation.h"
#include "kw/cuda/per_device.cuh"
#include "kw/elementwise_args.h"
#include "kw/gemm.h"

namespace kw {
namespace cuda {

int sm_count();
int compute_capability();

namespace {

constexpr int kBM = 128, kBN = 128, kBK = 32;
constexpr int kStages = 3;
constexpr int kThreads = 256;  // 8 warps, 2 (m) x 4 (n), 64 x 32 outputs each
// Row pitches in floats. A fragment load reads row g, column t (g = lane / 4, t = lane % 4):
// a pitch of 4 mod 32 puts those on banks 4g + t. An n-major b fragment reads row t, column g:
// a pitch of 8 mod 32 gives banks 8t + g. Both keep rows 16-byte aligned for cp.async.
constexpr int kKPitch = kBK + 4;
constexpr int kNPitch = kBN + 8;
constexpr int kATile = kBM * kKPitch;
constexpr int kBTileK = kBN * kKPitch;  // b k-major: kBN rows of k
constexpr int kBTileN = kBK * kNPitch;  // b n-major: kBK rows of n

template <bool BNMajor>
constexpr int b_tile_floats() { return BNMajor ? kBTileN : kBTileK; }

template <bool BNMajor>
constexpr size_t smem_bytes() {
  return sizeof(float) * kStages * (kATile + b_tile_floats<BNMajor>());
}

__device__ __forceinline__ void cp_async16(float* dst, const float* src, bool valid) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  const int bytes = valid ? 16 : 0;  // 0: fill with zeros, read nothing
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(bytes));
}

__device__ __forceinline__ unsigned to_tf32(float x) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));  // round to nearest, as cuBLAS's TF32
  return r;
}

__device__ __forceinline__ void mma_tf32(float (&d)[4], const unsigned (&a)[4],
                                         const unsigned (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

struct SplitKParams {
  const float* a;
  const float* b;
  float* partial;  // [splits, m, n]
  int64_t m, n, k, lda, ldb;
  int64_t k_per_split;  // a multiple of kBK
};

// Issues the cp.async copies of the k-tile at k0 (split end k_end) into one ring slot.
template <bool BNMajor>
__device__ __forceinline__ void load_tile(const SplitKParams& p, float* sa, float* sb,
                                          int64_t m0, int64_t n0, int64_t k0, int64_t k_end) {
  const int tid = threadIdx.x;
  // a: kBM rows of kBK floats, 8 vectors a row.
#pragma unroll
  for (int i = 0; i < kBM * kBK / 4 / kThreads; ++i) {
    const int v = tid + i * kThreads, row = v / (kBK / 4), col = (v % (kBK / 4)) * 4;
    const bool ok = m0 + row < p.m && k0 + col < k_end;
    const float* src = ok ? p.a + (m0 + row) * p.lda + k0 + col : p.a;
    cp_async16(sa + row * kKPitch + col, src, ok);
  }
  if (BNMajor) {  // kBK rows of kBN floats, 32 vectors a row
#pragma unroll
    for (int i = 0; i < kBK * kBN / 4 / kThreads; ++i) {
      const int v = tid + i * kThreads, row = v / (kBN / 4), col = (v % (kBN / 4)) * 4;
      const bool ok = k0 + row < k_end && n0 + col < p.n;
      const float* src = ok ? p.b + (k0 + row) * p.ldb + n0 + col : p.b;
      cp_async16(sb + row * kNPitch + col, src, ok);
    }
  } else {  // kBN rows of kBK floats
#pragma unroll
    for (int i = 0; i < kBN * kBK / 4 / kThreads; ++i) {
      const int v = tid + i * kThreads, row = v / (kBK / 4), col = (v % (kBK / 4)) * 4;
      const bool ok = n0 + row < p.n && k0 + col < k_end;
      const float* src = ok ? p.b + (n0 + row) * p.ldb + k0 + col : p.b;
      cp_async16(sb + row * kKPitch + col, src, ok);
    }
  }
}

// Block (tile, split): blockIdx.x runs over the tiles of one split first. Two blocks an SM (at
// most 128 registers a thread), so one block's loads overlap the other's mma.
template <bool BNMajor>
__global__ void __launch_bounds__(kThreads, 2) split_k_tf32_kernel(SplitKParams p) {
  extern __shared__ __align__(16) float smem[];
  float* ring_a = smem;
  float* ring_b = smem + kStages * kATile;
  const int64_t tiles_n = (p.n + kBN - 1) / kBN;
  const int64_t tile = blockIdx.x % (((p.m + kBM - 1) / kBM) * tiles_n);
  const int64_t split = blockIdx.x / (((p.m + kBM - 1) / kBM) * tiles_n);
  const int64_t m0 = (tile / tiles_n) * kBM, n0 = (tile % tiles_n) * kBN;
  const int64_t k_begin = split * p.k_per_split;
  const int64_t k_end = std::min(p.k, k_begin + p.k_per_split);
  const int k_tiles = static_cast<int>((k_end - k_begin + kBK - 1) / kBK);

  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int g = lane / 4, t = lane % 4;
  const int wm = (warp % 2) * 64, wn = (warp / 2) * 32;
  float acc[4][4][4] = {};  // [m16 tile][n8 tile][fragment]

#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles)
      load_tile<BNMajor>(p, ring_a + s * kATile, ring_b + s * b_tile_floats<BNMajor>(), m0, n0,
                         k_begin + s * kBK, k_end);
    asm volatile("cp.async.commit_group;\n" ::);
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kStages - 2));
    __syncthreads();  // the slot refilled below was read by every warp in the last iteration
    const int next = kt + kStages - 1;
    if (next < k_tiles) {
      const int slot = next % kStages;
      load_tile<BNMajor>(p, ring_a + slot * kATile, ring_b + slot * b_tile_floats<BNMajor>(), m0,
                         n0, k_begin + static_cast<int64_t>(next) * kBK, k_end);
    }
    asm volatile("cp.async.commit_group;\n" ::);
    const float* sa = ring_a + (kt % kStages) * kATile;
    const float* sb = ring_b + (kt % kStages) * b_tile_floats<BNMajor>();
#pragma unroll
    for (int kk = 0; kk < kBK; kk += 8) {
      unsigned af[4][4], bf[4][2];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const float* r = sa + (wm + i * 16 + g) * kKPitch + kk + t;
        af[i][0] = to_tf32(r[0]);
        af[i][1] = to_tf32(r[8 * kKPitch]);
        af[i][2] = to_tf32(r[4]);
        af[i][3] = to_tf32(r[8 * kKPitch + 4]);
      }
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int col = wn + j * 8 + g;
        if (BNMajor) {
          bf[j][0] = to_tf32(sb[(kk + t) * kNPitch + col]);
          bf[j][1] = to_tf32(sb[(kk + t + 4) * kNPitch + col]);
        } else {
          bf[j][0] = to_tf32(sb[col * kKPitch + kk + t]);
          bf[j][1] = to_tf32(sb[col * kKPitch + kk + t + 4]);
        }
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) mma_tf32(acc[i][j], af[i], bf[j]);
    }
  }
  asm volatile("cp.async.wait_group 0;\n" ::);

  // Fragment (i, j) holds rows g and g + 8, columns 2t and 2t + 1 of its 16 x 8 block; n is
  // even, so a pair is in range whenever its first column is.
  float* out = p.partial + split * p.m * p.n;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int64_t col = n0 + wn + j * 8 + 2 * t;
      if (col >= p.n) continue;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int64_t row = m0 + wm + i * 16 + g + 8 * h;
        if (row < p.m)
          *reinterpret_cast<float2*>(out + row * p.n + col) =
              make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
      }
    }
}

// d[r, c] = act(sum over splits of partial[s, r, c] + bias[c]), four columns a thread.
__global__ void split_k_reduce_kernel(const float* partial, int64_t splits, int64_t m, int64_t n,
                                      const float* bias, int activation, float* d, int64_t ldd) {
  const int64_t quads = m * n / 4;
  for (int64_t q = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; q < quads;
       q += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float4 sum = reinterpret_cast<const float4*>(partial)[q];
    for (int64_t s = 1; s < splits; ++s) {
      const float4 v = reinterpret_cast<const float4*>(partial + s * m * n)[q];
      sum.x += v.x;
      sum.y += v.y;
      sum.z += v.z;
      sum.w += v.w;
    }
    const int64_t row = 4 * q / n, col = 4 * q % n;
    float x[4] = {sum.x, sum.y, sum.z, sum.w};
    const auto act = static_cast<Activation>(activation);
#pragma unroll
    for (int e = 0; e < 4; ++e) x[e] = activate(act, bias ? x[e] + bias[col + e] : x[e]);
    *reinterpret_cast<float4*>(d + row * ldd + col) = make_float4(x[0], x[1], x[2], x[3]);
  }
}

bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

// Blocks of the GEMM kernel an SM holds, read once per device; the query first raises the
// kernel's shared-memory limit on that device, which every launch there needs.
template <bool BNMajor>
int blocks_per_sm() {
  static std::atomic<int> cache[kMaxDevices];
  return cached_per_device(cache, 1, [](int) {
    int blocks = 0;
    const int bytes = static_cast<int>(smem_bytes<BNMajor>());
    if (cudaFuncSetAttribute(split_k_tf32_kernel<BNMajor>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, split_k_tf32_kernel<BNMajor>,
                                                      kThreads, bytes) != cudaSuccess)
      return 0;
    return blocks;
  });
}

// Splits for this shape: enough blocks to fill every SM at the occupancy the kernel reaches,
// each split at least four k-tiles long.
template <bool BNMajor>
int64_t split_count(const GemmArgs& g) {
  const int64_t tiles = ((g.m + kBM - 1) / kBM) * ((g.n + kBN - 1) / kBN);
  const int64_t k_tiles = (g.k + kBK - 1) / kBK;
  const int64_t blocks = static_cast<int64_t>(sm_count()) * blocks_per_sm<BNMajor>();
  return std::max<int64_t>(1, std::min((blocks + tiles - 1) / tiles, k_tiles / 4));
}

// (splits, k per split) with no split left empty.
template <bool BNMajor>
void plan(const GemmArgs& g, int64_t& splits, int64_t& k_per_split) {
  const int64_t k_tiles = (g.k + kBK - 1) / kBK;
  const int64_t wanted = split_count<BNMajor>(g);
  k_per_split = (k_tiles + wanted - 1) / wanted * kBK;
  splits = (g.k + k_per_split - 1) / k_per_split;
}

void plan(const GemmArgs& g, int64_t& splits, int64_t& k_per_split) {
  if (g.b_n_major)
    plan<true>(g, splits, k_per_split);
  else
    plan<false>(g, splits, k_per_split);
}

}  // namespace

const char* split_k_unsupported(const GemmArgs& g) {
  if (static_cast<DType>(g.dtype) != DType::Float32 ||
      static_cast<GemmMethod>(g.method) != GemmMethod::kTf32)
    return "the split-k kernel runs one TF32 pass on float32 only";
  if (compute_capability() < 80) return "TF32 mma needs compute capability 8.0 or newer";
  if (g.m <= 0 || g.n <= 0 || g.k <= 0) return "an empty dimension";
  if (g.k % 4 || g.n % 4 || g.lda % 4 || g.ldb % 4 || g.ldd % 4)
    return "k, n and the row strides must be multiples of 4 for 16-byte loads";
  if (!aligned16(g.a) || !aligned16(g.b) || !aligned16(g.d))
    return "operands must be 16-byte aligned";
  return nullptr;
}

size_t split_k_workspace_bytes(const GemmArgs& g) {
  int64_t splits = 0, k_per_split = 0;
  plan(g, splits, k_per_split);
  return static_cast<size_t>(splits * g.m * g.n) * sizeof(float);
}

int split_k_gemm(const GemmArgs& g, void* workspace, void* stream) {
  int64_t splits = 0, k_per_split = 0;
  plan(g, splits, k_per_split);
  const auto s = static_cast<cudaStream_t>(stream);
  SplitKParams p{static_cast<const float*>(g.a), static_cast<const float*>(g.b),
                 static_cast<float*>(workspace), g.m, g.n, g.k, g.lda, g.ldb, k_per_split};
  const int64_t tiles = ((g.m + kBM - 1) / kBM) * ((g.n + kBN - 1) / kBN);
  const dim3 grid(static_cast<unsigned>(tiles * splits));
  if (g.b_n_major)
    split_k_tf32_kernel<true><<<grid, kThreads, smem_bytes<true>(), s>>>(p);
  else
    split_k_tf32_kernel<false><<<grid, kThreads, smem_bytes<false>(), s>>>(p);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return static_cast<int>(err);
  const int64_t quads = g.m * g.n / 4;
  const int blocks = static_cast<int>(std::min<int64_t>((quads + 255) / 256, 4LL * sm_count()));
  split_k_reduce_kernel<<<blocks, 256, 0, s>>>(p.partial, splits, g.m, g.n,
                                               static_cast<const float*>(g.bias), g.activation,
                                               static_cast<float*>(g.d), g.ldd);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace cuda
}  // namespace kw

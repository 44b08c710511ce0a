// What the rows-read-once study programs share: a softmax row state and its merges, the
// mbarrier, bulk-copy and cache-policy instructions, the input, the timing (CUDA events, L2
// flushed, median) and the copy-rate baseline, and a float64 check of softmax rows.
#pragma once

#include <cuda_runtime.h>
#include <cooperative_groups.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

struct St { float m, s; };
__device__ __forceinline__ St mergeS(St a, St b) {
  float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return {m, 0.f};
  return {m, a.s * __expf(a.m - m) + b.s * __expf(b.m - m)};
}
__device__ __forceinline__ St warp_merge(St s) {
  for (int o = 16; o; o >>= 1) s = mergeS(s, St{__shfl_down_sync(~0u, s.m, o), __shfl_down_sync(~0u, s.s, o)});
  return St{__shfl_sync(~0u, s.m, 0), __shfl_sync(~0u, s.s, 0)};
}
template <int THREADS>
__device__ __forceinline__ St block_merge(St s, St* red) {
  s = warp_merge(s);
  if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = s;
  __syncthreads();
  St tot = red[0];
  for (int w = 1; w < THREADS / 32; ++w) tot = mergeS(tot, red[w]);
  __syncthreads();
  return tot;
}

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(uint64_t* b, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(count));
}
__device__ __forceinline__ void mbar_arrive(uint64_t* b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}\n"
      :: "r"(sa(bar)), "r"(parity) : "memory");
}
__device__ __forceinline__ void mbar_wait_cluster(uint64_t* bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}\n"
      :: "r"(sa(bar)), "r"(parity) : "memory");
}
// Arrive on the mbarrier at the same offset in cluster CTA `rank`, releasing this CTA's writes.
__device__ __forceinline__ void mbar_arrive_remote(uint64_t* bar, unsigned rank) {
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(sa(bar)), "r"(rank));
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(remote) : "memory");
}
__device__ __forceinline__ St ld_remote(const St* p, unsigned rank) {
  uint32_t remote; float m, s;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(sa(p)), "r"(rank));
  asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];" : "=f"(m), "=f"(s) : "r"(remote) : "memory");
  return St{m, s};
}
__device__ __forceinline__ void bulk_load(void* dst, const void* src, uint32_t bytes, uint64_t* bar, uint64_t pol) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sa(bar)), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
               :: "r"(sa(dst)), "l"(src), "r"(bytes), "r"(sa(bar)), "l"(pol) : "memory");
}
__device__ __forceinline__ void st_ef(float4* p, float4 v, uint64_t pol) {
  asm volatile("st.global.L2::cache_hint.v4.f32 [%0], {%1,%2,%3,%4}, %5;"
               :: "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w), "l"(pol) : "memory");
}
__device__ __forceinline__ void bar_compute(int nthreads) { asm volatile("bar.sync 1, %0;" :: "r"(nthreads) : "memory"); }

__device__ __forceinline__ float4 ld_pol(const float4* p, uint64_t pol) {
  float4 v;
  asm volatile("ld.global.nc.L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p), "l"(pol));
  return v;
}
__device__ __forceinline__ void st_pol(float4* p, float4 v, uint64_t pol) {
  asm volatile("st.global.L2::cache_hint.v4.f32 [%0], {%1,%2,%3,%4}, %5;"
               :: "l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w), "l"(pol) : "memory");
}
__device__ __forceinline__ unsigned ld_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// H: 0 plain; 1 fold evict_last, apply/store evict_first; 2 fold plain, apply ldcs, store stcs
template <int H> __device__ __forceinline__ float4 ld_fold(const float4* p) {
  if (H == 1 || H == 3) { uint64_t pol; asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol)); return ld_pol(p, pol); }
  return __ldg(p);
}
template <int H> __device__ __forceinline__ float4 ld_apply(const float4* p) {
  if (H == 3) { float4 v = __ldg(p); if ((threadIdx.x & 7) == 0) asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(p) : "memory"); return v; }
  if (H == 1) { uint64_t pol; asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol)); return ld_pol(p, pol); }
  if (H == 2) return __ldcs(p);
  return __ldg(p);
}
template <int H> __device__ __forceinline__ void st_out(float4* p, float4 v) {
  if (H == 1 || H == 3) { uint64_t pol; asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol)); st_pol(p, v, pol); return; }
  if (H == 2) { __stcs(p, v); return; }
  *p = v;
}

template <int H>
__global__ void copy_k(const float4* __restrict__ x, float4* __restrict__ y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    st_out<H>(y + i, ld_apply<H>(x + i));
}

__global__ void init_k(float* x, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)(i * 2654435761ull) ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    x[i] = ((h & 0xffffff) / 16777216.f - 0.5f) * 8.f;
  }
}

static float* g_flush; static size_t g_flush_n = 256ull << 20;
static void flush() { CK(cudaMemsetAsync(g_flush, (int)(rand() & 0xff), g_flush_n)); }

template <typename F> float timeit(F f, int reps) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  f(); CK(cudaDeviceSynchronize());
  std::vector<float> ts;
  for (int r = 0; r < reps; ++r) {
    flush();
    cudaEventRecord(a); f(); cudaEventRecord(b); CK(cudaEventSynchronize(b));
    float ms; cudaEventElapsedTime(&ms, a, b); ts.push_back(ms);
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}


// x (rows x len, random), y, the flush buffer, and the copy rate to compare with: the faster of
// a device memcpy and a plain vectorized copy kernel.
struct Problem {
  long long rows, len, n;
  int reps, sms;
  float *x, *y;
  float copy_ms;
  Problem(int argc, char** argv) {
    rows = atoll(argv[1]); len = atoll(argv[2]); reps = argc > 3 ? atoi(argv[3]) : 10;
    n = rows * len;
    CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&y, n * 4)); CK(cudaMalloc(&g_flush, g_flush_n));
    init_k<<<1024, 256>>>(x, n, 1234);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int l2; cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    printf("rows %lld len %lld  (%.1f MB, row %.2f MB)  SMs %d L2 %d MB\n", rows, len, n * 4 / 1e6, len * 4 / 1e6, sms, l2 >> 20);
    const float t_memcpy = timeit([&] { CK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice)); }, reps);
    const float t_copy = timeit([&] { copy_k<0><<<sms * 8, 256>>>((const float4*)x, (float4*)y, n / 4); }, reps);
    copy_ms = std::min(t_memcpy, t_copy);
    printf("copy: memcpy %.4f ms (%.0f GB/s)  kernel %.4f ms\n", t_memcpy, 2.0 * n * 4 / t_memcpy / 1e6, t_copy);
  }
  // y against softmax of x in float64, on the first, middle and last rows.
  void check(const char* name) const {
    std::vector<float> hx(len), hy(len); double worst = 0;
    for (long long r : {0LL, rows / 2, rows - 1}) {
      CK(cudaMemcpy(hx.data(), x + r * len, len * 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(hy.data(), y + r * len, len * 4, cudaMemcpyDeviceToHost));
      double m = -1e300, s = 0; for (float v : hx) m = std::max(m, (double)v);
      for (float v : hx) s += std::exp(v - m);
      for (long long j = 0; j < len; ++j) { double ref = std::exp(hx[j] - m) / s; worst = std::max(worst, std::fabs(hy[j] - ref) / ref); }
    }
    if (worst > 1e-5) printf("  %s: max rel err %.2e  WRONG\n", name, worst);
  }
};

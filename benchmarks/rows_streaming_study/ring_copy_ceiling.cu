// Study: the copy rate through a shared-memory ring (bulk asynchronous loads, then stores from
// registers or bulk asynchronous stores), the ceiling of any kernel that stages rows on chip.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cmath>
#include <algorithm>
namespace cg = cooperative_groups;
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

// Pure streaming through the ring: consumers wait for a piece, write it out (MODE 0: st.global with
// an evict-first policy, 1: plain st.global, 2: st.global.cs, 3: bulk async store by a storer warp).
__device__ __forceinline__ void bulk_store(void* dst, const void* src, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(dst), "r"(sa(src)), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
template <int N> __device__ __forceinline__ void bulk_wait_read() { asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(N) : "memory"); }

template <int NCW, int MODE>
__global__ void __launch_bounds__((NCW + 2) * 32, 1) stream_ring(const float* __restrict__ x, float* __restrict__ y,
    long long total_pieces, int pe, int S) {
  extern __shared__ __align__(128) unsigned char smem[];
  float* ring = reinterpret_cast<float*>(smem);
  uint64_t* bars = reinterpret_cast<uint64_t*>(smem + (size_t)S * pe * 4);
  uint64_t *full = bars, *empty = bars + S, *done = bars + 2 * S;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const long long G = gridDim.x, b = blockIdx.x;
  const long long Q = total_pieces > b ? (total_pieces - b + G - 1) / G : 0;
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) { mbar_init(full + i, 1); mbar_init(empty + i, MODE == 3 ? 1 : NCW); mbar_init(done + i, NCW); }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  uint64_t pol; asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
  if (warp == NCW) {
    if (lane == 0)
      for (long long q = 0; q < Q; ++q) {
        const int sl = (int)(q % S);
        if (q >= S) mbar_wait(empty + sl, (uint32_t)(((q / S) - 1) & 1));
        bulk_load(ring + (size_t)sl * pe, x + (b + q * G) * pe, (uint32_t)(pe * 4), full + sl, pol);
      }
  } else if (warp == NCW + 1) {
    if (MODE == 3 && lane == 0) {
      constexpr int K = 2;
      for (long long q = 0; q < Q; ++q) {
        const int sl = (int)(q % S);
        mbar_wait(done + sl, (uint32_t)((q / S) & 1));
        bulk_store(y + (b + q * G) * pe, ring + (size_t)sl * pe, (uint32_t)(pe * 4));
        bulk_wait_read<K>();
        if (q >= K) mbar_arrive(empty + (int)((q - K) % S));
      }
      bulk_wait_read<0>();
      for (long long q = Q > K ? Q - K : 0; q < Q; ++q) mbar_arrive(empty + (int)(q % S));
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
  } else {
    const int nt = NCW * 32, tid = threadIdx.x;
    for (long long q = 0; q < Q; ++q) {
      const int sl = (int)(q % S);
      mbar_wait(full + sl, (uint32_t)((q / S) & 1));
      float4* v4 = reinterpret_cast<float4*>(ring + (size_t)sl * pe);
      float4* out = reinterpret_cast<float4*>(y + (b + q * G) * pe);
      if (MODE == 3) {
        for (int i = tid; i < pe / 4; i += nt) { float4 v = v4[i]; v.x += 1.f; v4[i] = v; }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncwarp();
        if (lane == 0) mbar_arrive(done + sl);
      } else {
        for (int i = tid; i < pe / 4; i += nt) {
          float4 v = v4[i]; v.x += 1.f;
          if (MODE == 0) st_ef(out + i, v, pol);
          else if (MODE == 1) out[i] = v;
          else __stcs(out + i, v);
        }
        __syncwarp();
        if (lane == 0) mbar_arrive(empty + sl);
      }
    }
  }
}

__global__ void copy_k(const float4* __restrict__ x, float4* __restrict__ y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    y[i] = __ldg(x + i);
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

int main(int argc, char** argv) {
  long long rows = atoll(argv[1]), len = atoll(argv[2]);
  int reps = argc > 3 ? atoi(argv[3]) : 10;
  long long n = rows * len;
  float *x, *y; CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&y, n * 4)); CK(cudaMalloc(&g_flush, g_flush_n));
  init_k<<<1024, 256>>>(x, n, 1234);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int optin; cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  printf("rows %lld len %lld  (%.1f MB, row %.2f MB)\n", rows, len, n * 4 / 1e6, len * 4 / 1e6);
  float t_memcpy = timeit([&] { CK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice)); }, reps);
  float t_copy = timeit([&] { copy_k<<<sms * 8, 256>>>((const float4*)x, (float4*)y, n / 4); }, reps);
  const float copy = std::min(t_memcpy, t_copy);
  printf("copy: memcpy %.4f ms  kernel %.4f ms\n", t_memcpy, t_copy);
  auto go = [&](auto kern, int mode, int pk, int ringkb) {
    const int pe = pk * 256, S = ringkb / pk;
    const size_t shm = (size_t)S * pe * 4 + 3 * S * 8;
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm));
    const long long P = n / pe;
    auto f = [&] { kern<<<sms, 10 * 32, shm>>>(x, y, P, pe, S); CK(cudaGetLastError()); };
    float t = timeit(f, reps);
    const double bytes = 2.0 * P * pe * 4;
    printf("copy mode %d piece %2d KB ring %3d KB (S %2d): %.4f ms  %.3f of copy\n", mode, pk, ringkb, S, t, copy / t);
  };
  for (int pk : {8, 16, 32})
    for (int ringkb : {128, 192}) {
      go(stream_ring<8, 0>, 0, pk, ringkb);
      go(stream_ring<8, 1>, 1, pk, ringkb);
      go(stream_ring<8, 2>, 2, pk, ringkb);
      go(stream_ring<8, 3>, 3, pk, ringkb);
    }
  return 0;
}

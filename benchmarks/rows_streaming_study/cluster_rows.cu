// Study: a row held in a thread-block cluster's shared memory (two slices a CTA, loaded by bulk
// asynchronous copies, the row's state exchanged through distributed shared memory), read once.
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

template <int NCW>
__global__ void __launch_bounds__((NCW + 1) * 32, 1) cluster_softmax(const float* __restrict__ x, float* __restrict__ y,
    long long rows, long long len, long long slice /* elements a CTA, multiple of 4 */) {
  extern __shared__ __align__(128) unsigned char smem[];
  float* buf = reinterpret_cast<float*>(smem);                      // [2][slice]
  uint64_t* bars = reinterpret_cast<uint64_t*>(smem + 2 * slice * 4);
  uint64_t *full = bars, *empty = bars + 2, *peers = bars + 4;
  St* partial = reinterpret_cast<St*>(bars + 6);                    // [2]
  St* rowst = partial + 2;                                          // [2]
  __shared__ St red[NCW];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned C = cluster.num_blocks(), rank = cluster.block_rank();
  const long long cid = blockIdx.x / C, ncl = gridDim.x / C;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const long long begin = (long long)rank * slice;
  const long long n = begin >= len ? 0 : (len - begin < slice ? len - begin : slice);
  const long long T = rows > cid ? (rows - cid + ncl - 1) / ncl : 0;  // rows of this cluster
  if (threadIdx.x == 0) {
    for (int b = 0; b < 2; ++b) { mbar_init(full + b, 1); mbar_init(empty + b, NCW); mbar_init(peers + b, C); }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster.sync();
  uint64_t pol; asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
  if (warp == NCW) {  // producer
    if (lane == 0)
      for (long long t = 0; t < T; ++t) {
        const int b = (int)(t & 1);
        if (t >= 2) mbar_wait(empty + b, (uint32_t)(((t >> 1) - 1) & 1));
        const long long r = cid + t * ncl;
        if (n > 0) bulk_load(buf + b * slice, x + r * len + begin, (uint32_t)(n * 4), full + b, pol);
        else mbar_arrive(full + b);
      }
  } else {
    const int nt = NCW * 32, t0 = threadIdx.x;
    for (long long t = 0; t < T; ++t) {
      const int b = (int)(t & 1);
      const uint32_t ph = (uint32_t)((t >> 1) & 1);
      const long long r = cid + t * ncl;
      mbar_wait(full + b, ph);
      const float4* v4 = reinterpret_cast<const float4*>(buf + b * slice);
      const long long nv = n / 4;
      float m = -INFINITY;
      for (long long j = t0; j < nv; j += nt) { const float4 v = v4[j]; m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w))); }
      float s = 0.f;
      if (m != -INFINITY)
        for (long long j = t0; j < nv; j += nt) { const float4 v = v4[j]; s += __expf(v.x - m) + __expf(v.y - m) + __expf(v.z - m) + __expf(v.w - m); }
      St st = warp_merge({m, s});
      if (lane == 0) red[warp] = st;
      bar_compute(nt);
      if (warp == 0) {
        St w = lane < NCW ? red[lane] : St{-INFINITY, 0.f};
        w = warp_merge(w);
        if (lane == 0) partial[b] = w;
        __syncwarp();
        if (lane < C) mbar_arrive_remote(peers + b, lane);  // lane p tells CTA p
        mbar_wait_cluster(peers + b, ph);
        St all = lane < C ? ld_remote(partial + b, lane) : St{-INFINITY, 0.f};
        all = warp_merge(all);
        if (lane == 0) rowst[b] = all;
      }
      bar_compute(nt);
      const St rs = rowst[b];
      const float M = rs.m, inv = 1.f / rs.s;
      float4* out = reinterpret_cast<float4*>(y + r * len + begin);
      for (long long j = t0; j < nv; j += nt) {
        const float4 v = v4[j];
        st_ef(out + j, make_float4(__expf(v.x - M) * inv, __expf(v.y - M) * inv, __expf(v.z - M) * inv, __expf(v.w - M) * inv), pol);
      }
      __syncwarp();
      if (lane == 0) mbar_arrive(empty + b);
    }
  }
  cluster.sync();  // peers may still read this CTA's partials
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
  auto check = [&](const char* name) {
    std::vector<float> hx(len), hy(len); double worst = 0;
    for (long long r : {0LL, rows / 2, rows - 1}) {
      CK(cudaMemcpy(hx.data(), x + r * len, len * 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(hy.data(), y + r * len, len * 4, cudaMemcpyDeviceToHost));
      double m = -1e300, s = 0; for (float v : hx) m = std::max(m, (double)v);
      for (float v : hx) s += std::exp(v - m);
      for (long long j = 0; j < len; ++j) { double ref = std::exp(hx[j] - m) / s; worst = std::max(worst, std::fabs(hy[j] - ref) / ref); }
    }
    if (worst > 1e-5) printf("  %s: max rel err %.2e  WRONG\n", name, worst);
  };
  auto run = [&](auto kern, int ncw, int C) {
    const int threads = (ncw + 1) * 32;
    long long slice = ((len + C - 1) / C + 3) / 4 * 4;
    const size_t shm = 2 * slice * 4 + 6 * 8 + 4 * sizeof(St);
    char nm[96]; snprintf(nm, 96, "C %d warps %d slice %lld KB", C, ncw, slice * 4 >> 10);
    if (shm > (size_t)optin) { printf("%-32s needs %zu B, skipped\n", nm, shm); return; }
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm));
    if (C > 8) CK(cudaFuncSetAttribute(kern, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = C; attr[0].val.clusterDim.y = 1; attr[0].val.clusterDim.z = 1;
    cfg.blockDim = dim3(threads); cfg.dynamicSmemBytes = shm; cfg.attrs = attr; cfg.numAttrs = 1;
    cfg.gridDim = dim3(C);
    int ncl = 0; cudaError_t e = cudaOccupancyMaxActiveClusters(&ncl, (void*)kern, &cfg);
    if (e != cudaSuccess || ncl == 0) { printf("%-32s cannot be scheduled (%s)\n", nm, cudaGetErrorString(e)); cudaGetLastError(); return; }
    const long long use = std::min<long long>(ncl, rows);
    cfg.gridDim = dim3((unsigned)(use * C));
    auto f = [&] { CK(cudaLaunchKernelEx(&cfg, kern, (const float*)x, y, rows, len, slice)); };
    CK(cudaMemset(y, 0xff, n * 4));
    float t = timeit(f, reps);
    printf("%-32s clusters %3lld (%3lld SMs)  %.4f ms  %.3f of copy\n", nm, use, use * C, t, copy / t);
    check(nm);
  };
  for (int C : {1, 2, 4, 8, 16}) {
    run(cluster_softmax<8>, 8, C);
    run(cluster_softmax<16>, 16, C);
  }
  return 0;
}

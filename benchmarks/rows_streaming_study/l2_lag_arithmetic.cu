// Study: the arithmetic cost inside the L2-lag softmax: fast or accurate exp in the output,
// plain max-and-sum or logsumexp's flag-keeping online state in the fold.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cmath>
#include <algorithm>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

struct St { float m, s; };
__device__ __forceinline__ St mergeS(St a, St b) {
  float m = fmaxf(a.m, b.m);
  if (m == -INFINITY) return {m, 0.f};
  return {m, a.s * __expf(a.m - m) + b.s * __expf(b.m - m)};
}
template <int THREADS>
__device__ __forceinline__ St block_merge(St s, St* red) {
  for (int o = 16; o; o >>= 1) {
    St t{__shfl_down_sync(~0u, s.m, o), __shfl_down_sync(~0u, s.s, o)};
    s = mergeS(s, t);
  }
  if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = s;
  __syncthreads();
  St tot = red[0];
  for (int w = 1; w < THREADS / 32; ++w) tot = mergeS(tot, red[w]);
  __syncthreads();
  return tot;
}

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

template <int THREADS, int VPT, int H, bool ACC_APPLY = false, bool LSE_FOLD = false>
__global__ void __launch_bounds__(THREADS) streamed(const float* __restrict__ x, float* __restrict__ y,
    long long len, int cpr, long long total, long long L, St* states, unsigned* counters,
    unsigned long long* queue) {
  constexpr long long CHUNK = (long long)THREADS * VPT * 4;
  __shared__ St red[THREADS / 32];
  __shared__ long long item_s;
  const long long T = 2 * total;
  for (;;) {
    if (threadIdx.x == 0) item_s = (long long)atomicAdd(queue, 1ULL);
    __syncthreads();
    const long long t = item_s;
    if (t >= T) break;
    bool fold; long long c;
    if (t < L) { fold = true; c = t; }
    else {
      const long long u = t - L;
      if (u < 2 * (total - L)) { fold = u & 1; c = fold ? L + u / 2 : u / 2; }
      else { fold = false; c = (total - L) + (u - 2 * (total - L)); }
    }
    const long long row = c / cpr; const long long k = c % cpr;
    const float4* xr = reinterpret_cast<const float4*>(x + row * len + k * CHUNK);
    float4* yr = reinterpret_cast<float4*>(y + row * len + k * CHUNK);
    const long long nv = (CHUNK < len - k * CHUNK ? CHUNK : len - k * CHUNK) / 4;
    float4 v[VPT];
    if (fold) {
#pragma unroll
      for (int i = 0; i < VPT; ++i) {
        const long long j = (long long)i * THREADS + threadIdx.x;
        v[i] = j < nv ? ld_fold<H>(xr + j) : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
      }
      float m = -INFINITY;
      float s = 0.f;
      unsigned flags = 0;
      if (LSE_FOLD) {
#pragma unroll
        for (int i = 0; i < VPT; ++i) {
          float c[4] = {v[i].x, v[i].y, v[i].z, v[i].w};
          float vmax = -INFINITY;
#pragma unroll
          for (int q = 0; q < 4; ++q) {
            const bool nan = c[q] != c[q], pinf = c[q] == INFINITY;
            flags |= (nan ? 1u : 0u) | (pinf ? 2u : 0u);
            c[q] = (nan || pinf) ? -INFINITY : c[q];
            vmax = c[q] > vmax ? c[q] : vmax;
          }
          if (vmax > m) { s *= expf(m - vmax); m = vmax; }
          if (m > -INFINITY) {
#pragma unroll
            for (int q = 0; q < 4; ++q) s += __expf(c[q] - m);
          }
        }
        if (flags) m = NAN;
      } else {
#pragma unroll
        for (int i = 0; i < VPT; ++i) m = fmaxf(m, fmaxf(fmaxf(v[i].x, v[i].y), fmaxf(v[i].z, v[i].w)));
        if (m != -INFINITY) {
#pragma unroll
          for (int i = 0; i < VPT; ++i) s += __expf(v[i].x - m) + __expf(v[i].y - m) + __expf(v[i].z - m) + __expf(v[i].w - m);
        }
      }
      St st = block_merge<THREADS>({m, s}, red);
      if (threadIdx.x == 0) {
        states[c] = st;
        __threadfence();
        atomicAdd(counters + row, 1u);
      }
    } else {
      if (threadIdx.x == 0) {
        while (ld_acquire(counters + row) < (unsigned)cpr) __nanosleep(100);
      }
      __syncthreads();
      St st{-INFINITY, 0.f};
      for (int i = threadIdx.x; i < cpr; i += THREADS) {
        const float2 o = __ldcg(reinterpret_cast<const float2*>(states + row * cpr + i));  // L2: written by other SMs
        st = mergeS(st, St{o.x, o.y});
      }
      st = block_merge<THREADS>(st, red);
      const float M = st.m, inv = 1.f / st.s;
#pragma unroll
      for (int i = 0; i < VPT; ++i) {
        const long long j = (long long)i * THREADS + threadIdx.x;
        if (j < nv) v[i] = ld_apply<H>(xr + j);
      }
#pragma unroll
      for (int i = 0; i < VPT; ++i) {
        const long long j = (long long)i * THREADS + threadIdx.x;
        if (j < nv) {
          float4 o = ACC_APPLY ? make_float4(expf(v[i].x - M) * inv, expf(v[i].y - M) * inv, expf(v[i].z - M) * inv, expf(v[i].w - M) * inv)
                               : make_float4(__expf(v[i].x - M) * inv, __expf(v[i].y - M) * inv, __expf(v[i].z - M) * inv, __expf(v[i].w - M) * inv);
          st_out<H>(yr + j, o);
        }
      }
    }
    __syncthreads();
  }
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

int main(int argc, char** argv) {
  long long rows = atoll(argv[1]), len = atoll(argv[2]);
  int reps = argc > 3 ? atoi(argv[3]) : 10;
  long long n = rows * len;
  float *x, *y; CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&y, n * 4)); CK(cudaMalloc(&g_flush, g_flush_n));
  init_k<<<1024, 256>>>(x, n, 1234);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int l2; cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
  printf("rows %lld len %lld  (%.1f MB, row %.2f MB)  SMs %d L2 %d MB\n", rows, len, n * 4 / 1e6, len * 4 / 1e6, sms, l2 >> 20);
  const double bytes = 2.0 * n * 4;
  float t_memcpy = timeit([&] { CK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice)); }, reps);
  float t_copy0 = timeit([&] { copy_k<0><<<sms * 8, 256>>>((const float4*)x, (float4*)y, n / 4); }, reps);
  float t_copy2 = timeit([&] { copy_k<2><<<sms * 8, 256>>>((const float4*)x, (float4*)y, n / 4); }, reps);
  float copy = std::min(t_memcpy, std::min(t_copy0, t_copy2));
  printf("copy: memcpy %.4f ms (%.0f GB/s)  kernel %.4f  kernel-cs %.4f\n", t_memcpy, bytes / t_memcpy / 1e6, t_copy0, t_copy2);

  St* states; unsigned* counters;
  CK(cudaMalloc(&states, (n / 1024 + 1024) * sizeof(St))); CK(cudaMalloc(&counters, rows * 4 + 4096));
  auto check = [&](const char* name) {
    std::vector<float> hx(len), hy(len); double worst = 0;
    for (long long r : {0LL, rows / 2, rows - 1}) {
      CK(cudaMemcpy(hx.data(), x + r * len, len * 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(hy.data(), y + r * len, len * 4, cudaMemcpyDeviceToHost));
      double m = -1e300, s = 0; for (float v : hx) m = std::max(m, (double)v);
      for (float v : hx) s += std::exp(v - m);
      for (long long j = 0; j < len; ++j) { double ref = std::exp(hx[j] - m) / s; worst = std::max(worst, std::fabs(hy[j] - ref) / ref); }
    }
    if (worst > 1e-5) printf("  %-28s max rel err %.2e  WRONG\n", name, worst);
  };
  auto run = [&](auto kern, int threads, int vpt, int per_sm, double extra_mb, const char* hname) {
    const long long chunk = (long long)threads * vpt * 4;
    const int cpr = (int)((len + chunk - 1) / chunk);
    const long long total = rows * cpr;
    int occ; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, threads, 0);
    const int grid = sms * std::min(occ, per_sm);
    const long long L = extra_mb < 0 ? total : std::min(total, (long long)cpr + grid / 2 + (long long)(extra_mb * 1e6 / (chunk * 4)));
    unsigned long long* queue = (unsigned long long*)(counters + ((rows + 1) / 2) * 2);
    auto f = [&] {
      CK(cudaMemsetAsync(counters, 0, rows * 4 + 64));
      kern<<<grid, threads>>>(x, y, len, cpr, total, L, states, counters, queue);
    };
    CK(cudaMemset(y, 0xff, n * 4));
    float t = timeit(f, reps);
    CK(cudaGetLastError());
    char nm[96]; snprintf(nm, 96, "%s t%d v%d g%d", hname, threads, vpt, grid);
    printf("%-26s lag %7.1f MB (inflight %5.1f MB) %.4f ms  %.3f of copy\n", nm, L * chunk * 4 / 1e6, grid * chunk * 4 / 1e6, t, copy / t);
    check(nm);
  };
  run(streamed<256, 8, 1>, 256, 8, 4, 0.0, "H1 fast");
  run(streamed<256, 8, 1, true, false>, 256, 8, 4, 0.0, "H1 accurate apply");
  run(streamed<256, 8, 1, false, true>, 256, 8, 4, 0.0, "H1 lse fold");
  run(streamed<256, 8, 1, true, true>, 256, 8, 4, 0.0, "H1 both");
  run(streamed<256, 8, 1>, 256, 8, 4, 0.0, "H1 fast again");
  return 0;
}

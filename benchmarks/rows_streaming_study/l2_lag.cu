// Study: softmax rows read from DRAM once by keeping a lag window of chunks in L2 (the design of
// csrc/include/kw/cuda/rows_streamed.cuh). Mode `sweep`: cache hints (H0 plain, H1 evict-last
// on the first read and evict-first on the second and the write, H2 .cs, H3 H1 then demoted),
// block shapes, blocks per SM and lag, against the same kernel reading twice (all folds
// first). Mode `arithmetic`: fast or accurate exp in the output, and a plain max-and-sum or
// logsumexp's flag-keeping online state in the fold.
//   l2_lag ROWS LEN REPS [sweep|arithmetic]
#include <string>

#include "study.cuh"

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

int main(int argc, char** argv) {
  const Problem P(argc, argv);
  const bool arithmetic = argc > 4 && std::string(argv[4]) == "arithmetic";
  St* states; unsigned* counters;
  CK(cudaMalloc(&states, (P.n / 1024 + 1024) * sizeof(St))); CK(cudaMalloc(&counters, P.rows * 4 + 4096));
  auto run = [&](auto kern, int threads, int vpt, int per_sm, double extra_mb, const char* hname) {
    const long long chunk = (long long)threads * vpt * 4;
    const int cpr = (int)((P.len + chunk - 1) / chunk);
    const long long total = P.rows * cpr;
    int occ; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, threads, 0);
    const int grid = P.sms * std::min(occ, per_sm);
    const long long L = extra_mb < 0 ? total : std::min(total, (long long)cpr + grid / 2 + (long long)(extra_mb * 1e6 / (chunk * 4)));
    unsigned long long* queue = (unsigned long long*)(counters + ((P.rows + 1) / 2) * 2);
    auto f = [&] {
      CK(cudaMemsetAsync(counters, 0, P.rows * 4 + 64));
      kern<<<grid, threads>>>(P.x, P.y, P.len, cpr, total, L, states, counters, queue);
    };
    CK(cudaMemset(P.y, 0xff, P.n * 4));
    float t = timeit(f, P.reps);
    CK(cudaGetLastError());
    char nm[96]; snprintf(nm, 96, "%s t%d v%d g%d", hname, threads, vpt, grid);
    printf("%-26s lag %7.1f MB (inflight %5.1f MB) %.4f ms  %.3f of copy\n", nm, L * chunk * 4 / 1e6, grid * chunk * 4 / 1e6, t, P.copy_ms / t);
    P.check(nm);
  };
  if (arithmetic) {
    run(streamed<256, 8, 1>, 256, 8, 4, 0.0, "H1 fast");
    run(streamed<256, 8, 1, true, false>, 256, 8, 4, 0.0, "H1 accurate apply");
    run(streamed<256, 8, 1, false, true>, 256, 8, 4, 0.0, "H1 lse fold");
    run(streamed<256, 8, 1, true, true>, 256, 8, 4, 0.0, "H1 both");
    return 0;
  }
  run(streamed<256, 8, 0>, 256, 8, 4, -1, "tworeads H0");
  for (int per_sm : {1, 2, 4})
    for (double extra : {0.0, 4.0, 14.0, 22.0}) {
      run(streamed<256, 8, 0>, 256, 8, per_sm, extra, "H0");
      run(streamed<256, 8, 1>, 256, 8, per_sm, extra, "H1");
      run(streamed<256, 8, 2>, 256, 8, per_sm, extra, "H2");
      run(streamed<256, 8, 3>, 256, 8, per_sm, extra, "H3");
      run(streamed<512, 8, 1>, 512, 8, per_sm, extra, "H1");
    }
  return 0;
}

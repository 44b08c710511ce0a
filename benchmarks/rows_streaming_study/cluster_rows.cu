// Study: a row held in a thread-block cluster's shared memory (two slices a CTA, loaded by bulk
// asynchronous copies, the row's state exchanged through distributed shared memory), read once.
//   cluster_rows ROWS LEN REPS
#include "study.cuh"

namespace cg = cooperative_groups;

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

int main(int argc, char** argv) {
  const Problem P(argc, argv);
  int optin; cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  auto run = [&](auto kern, int ncw, int C) {
    const int threads = (ncw + 1) * 32;
    long long slice = ((P.len + C - 1) / C + 3) / 4 * 4;
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
    const long long use = std::min<long long>(ncl, P.rows);
    cfg.gridDim = dim3((unsigned)(use * C));
    auto f = [&] { CK(cudaLaunchKernelEx(&cfg, kern, (const float*)P.x, P.y, P.rows, P.len, slice)); };
    CK(cudaMemset(P.y, 0xff, P.n * 4));
    float t = timeit(f, P.reps);
    printf("%-32s clusters %3lld (%3lld SMs)  %.4f ms  %.3f of copy\n", nm, use, use * C, t, P.copy_ms / t);
    P.check(nm);
  };
  for (int C : {1, 2, 4, 8, 16}) {
    run(cluster_softmax<8>, 8, C);
    run(cluster_softmax<16>, 16, C);
  }
  return 0;
}

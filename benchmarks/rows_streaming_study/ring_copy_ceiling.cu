// Study: the copy rate through a shared-memory ring (bulk asynchronous loads, then stores from
// registers or bulk asynchronous stores), the ceiling of any kernel that stages rows on chip.
//   ring_copy_ceiling ROWS LEN REPS   (ROWS x LEN floats are copied)
#include "study.cuh"

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

int main(int argc, char** argv) {
  const Problem P(argc, argv);
  auto go = [&](auto kern, int mode, int pk, int ringkb) {
    const int pe = pk * 256, S = ringkb / pk;
    const size_t shm = (size_t)S * pe * 4 + 3 * S * 8;
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm));
    const long long pieces = P.n / pe;
    auto f = [&] { kern<<<P.sms, 10 * 32, shm>>>(P.x, P.y, pieces, pe, S); CK(cudaGetLastError()); };
    float t = timeit(f, P.reps);
    printf("copy mode %d piece %2d KB ring %3d KB (S %2d): %.4f ms  %.3f of copy\n", mode, pk, ringkb, S, t, P.copy_ms / t);
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

// Sum over the middle dim of x [B, R, I] (I contiguous): where the generated rows template's
// one-thread-an-output kernel stands against layouts that split the reduced dim over a block.
//   middle_sum B R I REPS
// Each variant's time, its read rate (B*R*I*4 bytes / time) against the device memcpy's rate in
// the same run, and its worst relative error on a few outputs against float64.
#include "../rows_streaming_study/study.cuh"

// A thread an output, U loads of the reduced dim in flight (the generated kernel: U = 4, the
// compiler's own unrolling), 256 outputs a block.
template <int U>
__global__ void __launch_bounds__(256) per_output(const float* __restrict__ x, float* __restrict__ y,
                                                  int B, int R, int I) {
  const long long o = blockIdx.x * 256LL + threadIdx.x;
  if (o >= (long long)B * I) return;
  const long long b = o / I, i = o % I;
  const float* p = x + b * R * (long long)I + i;
  double acc = 0;
#pragma unroll U
  for (int r = 0; r < R; ++r) acc += p[(long long)r * I];
  y[o] = (float)acc;
}

// X outputs a block side by side (coalesced), the reduced dim split over Y threads each, their
// partial sums combined in shared memory.
template <int X, int Y, int U>
__global__ void __launch_bounds__(X * Y) tiled(const float* __restrict__ x, float* __restrict__ y,
                                               int B, int R, int I) {
  __shared__ double part[Y][X];
  const long long o = blockIdx.x * (long long)X + threadIdx.x;
  const bool ok = o < (long long)B * I;
  const long long oo = ok ? o : 0, b = oo / I, i = oo % I;
  const float* p = x + b * R * (long long)I + i;
  double acc = 0;
#pragma unroll U
  for (int r = threadIdx.y; r < R; r += Y) acc += p[(long long)r * I];
  part[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.y == 0) {
    for (int k = 1; k < Y; ++k) acc += part[k][threadIdx.x];
    if (ok) y[o] = (float)acc;
  }
}

int main(int argc, char** argv) {
  if (argc < 4) { printf("usage: middle_sum B R I [REPS]\n"); return 1; }
  const int B = atoi(argv[1]), R = atoi(argv[2]), I = atoi(argv[3]), reps = argc > 4 ? atoi(argv[4]) : 10;
  const long long n = (long long)B * R * I, outs = (long long)B * I;
  float *x, *y, *c;
  CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&y, outs * 4)); CK(cudaMalloc(&g_flush, g_flush_n));
  CK(cudaMalloc(&c, 1ll << 30));
  init_k<<<1024, 256>>>(x, n, 1234);
  const float t_copy = timeit([&] { CK(cudaMemcpyAsync(c, x, 1ll << 30, cudaMemcpyDeviceToDevice)); }, reps);
  printf("x [%d, %d, %d] (%.2f GB), memcpy of 1 GiB: %.0f GB/s (read+write)\n", B, R, I, n * 4 / 1e9,
         2.0 * (1ll << 30) / t_copy / 1e6);
  std::vector<float> col(R);
  auto check = [&](const char* name, float ms) {
    double worst = 0;
    for (long long o : {0LL, outs / 2 + 1, outs - 1}) {
      const long long b = o / I, i = o % I;
      CK(cudaMemcpy2D(col.data(), 4, x + b * R * (long long)I + i, (size_t)I * 4, 4, R, cudaMemcpyDeviceToHost));
      double ref = 0; for (float v : col) ref += v;
      float got; CK(cudaMemcpy(&got, y + o, 4, cudaMemcpyDeviceToHost));
      worst = std::max(worst, std::fabs(got - ref) / std::max(std::fabs(ref), 1e-30));
    }
    printf("%-28s %8.4f ms  read %6.0f GB/s  err %.1e%s\n", name, ms, n * 4 / ms / 1e6, worst, worst > 1e-5 ? "  WRONG" : "");
  };
  const unsigned g256 = (unsigned)((outs + 255) / 256);
#define PER(U) check("per output, unroll " #U, timeit([&] { per_output<U><<<g256, 256>>>(x, y, B, R, I); }, reps));
  PER(1) PER(4) PER(8) PER(16)
#define TILED(X, Y, U) check("tiled " #X "x" #Y ", unroll " #U, \
    timeit([&] { tiled<X, Y, U><<<(unsigned)((outs + X - 1) / X), dim3(X, Y)>>>(x, y, B, R, I); }, reps));
  TILED(32, 8, 4) TILED(32, 8, 8) TILED(64, 4, 4) TILED(64, 4, 8) TILED(128, 2, 8) TILED(32, 16, 4) TILED(32, 32, 4)
  return 0;
}

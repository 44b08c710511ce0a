// Times the dense elementwise kernel at several block sizes and unroll depths against a
// device-to-device copy, on 4096x393216 elements: the data behind VecConfig's choice.
//   nvcc -O3 -std=c++17 --expt-relaxed-constexpr -gencode=arch=compute_90a,code=sm_90a \
//        -Icsrc/include -o /tmp/variants scripts/elementwise_variants.cu csrc/cuda/device_info.cu
#include <algorithm>
#include <cstdlib>
#include <type_traits>
#include <cstdio>
#include <vector>

#include "kw/cuda/elementwise.cuh"
#include "kw/functors.h"

using namespace kw;
using namespace kw::cuda;

#define CHECK(x)                                                                      \
  do {                                                                                \
    cudaError_t e = (x);                                                              \
    if (e != cudaSuccess) {                                                           \
      std::printf("%s failed: %s\n", #x, cudaGetErrorString(e));                      \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

template <typename Fn>
float median_ms(Fn fn, int reps = 15) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  fn();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(a));
    fn();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

__global__ void fill(uint32_t* p, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    p[i] = static_cast<uint32_t>(i * 2654435761u) & 0xbf7fbf7fu;  // finite values of both signs
}

template <int NIn, int NOut>
ElementwiseArgs<NIn, NOut> dense(DType dt, int64_t n, void** bufs) {
  ElementwiseArgs<NIn, NOut> a{};
  a.dtype = dt;
  a.numel = n;
  a.contiguous = true;
  for (int k = 0; k < NOut; ++k) a.out[k] = bufs[k];
  for (int k = 0; k < NIn; ++k) a.in[k] = bufs[NOut + k];
  return a;
}

template <typename T, int NIn, int NOut, typename F>
void sweep(const char* name, DType dt, int64_t n, void** bufs, const F& f, double copy_gbps) {
  auto args = dense<NIn, NOut>(dt, n, bufs);
  const double bytes = double(n) * sizeof(T) * (NIn + NOut);
  auto run = [&](auto threads, auto unroll) {
    constexpr int Threads = decltype(threads)::value, Unroll = decltype(unroll)::value;
    float ms = median_ms([&] { launch_vectorized<Threads, Unroll, T>(args, f, 0); });
    CHECK(cudaGetLastError());
    std::printf("%-22s threads %4d unroll %d: %7.3f ms %6.0f GB/s %.3f of copy\n", name, Threads, Unroll, ms,
                bytes / ms / 1e6, bytes / ms / 1e6 / copy_gbps);
  };
  using std::integral_constant;
  run(integral_constant<int, 128>{}, integral_constant<int, 1>{});
  run(integral_constant<int, 128>{}, integral_constant<int, 2>{});
  run(integral_constant<int, 128>{}, integral_constant<int, 4>{});
  run(integral_constant<int, 128>{}, integral_constant<int, 8>{});
  run(integral_constant<int, 256>{}, integral_constant<int, 1>{});
  run(integral_constant<int, 256>{}, integral_constant<int, 2>{});
  run(integral_constant<int, 256>{}, integral_constant<int, 4>{});
  run(integral_constant<int, 256>{}, integral_constant<int, 8>{});
  run(integral_constant<int, 512>{}, integral_constant<int, 1>{});
  run(integral_constant<int, 512>{}, integral_constant<int, 2>{});
  run(integral_constant<int, 512>{}, integral_constant<int, 4>{});
}

int main() {
  const int64_t rows = 4096, cols = 393216, n = rows * cols;
  const size_t bytes = n * sizeof(float);
  void* bufs[5];
  for (auto& b : bufs) {
    CHECK(cudaMalloc(&b, bytes));
    fill<<<4096, 256>>>(static_cast<uint32_t*>(b), n);
  }
  CHECK(cudaDeviceSynchronize());
  const float copy_ms = median_ms([&] { CHECK(cudaMemcpyAsync(bufs[0], bufs[1], bytes, cudaMemcpyDeviceToDevice)); });
  const double copy_gbps = 2.0 * bytes / copy_ms / 1e6;
  std::printf("copy %zu MB: %.3f ms %.0f GB/s\n", bytes >> 20, copy_ms, copy_gbps);
  sweep<float, 1, 1>("square fp32", DType::Float32, n, bufs, SquareForward{}, copy_gbps);
  sweep<float, 1, 1>("elu fp32", DType::Float32, n, bufs, EluForward{0.5}, copy_gbps);
  sweep<float, 2, 1>("mul fp32", DType::Float32, n, bufs, MulForward{}, copy_gbps);
  sweep<__nv_bfloat16, 1, 1>("elu bf16", DType::BFloat16, n, bufs, EluForward{0.5}, copy_gbps);
  sweep<__nv_bfloat16, 1, 1>("sigmoid bf16", DType::BFloat16, n, bufs, SigmoidForward{}, copy_gbps);
  sweep<__nv_bfloat16, 1, 1>("square bf16", DType::BFloat16, n, bufs, SquareForward{}, copy_gbps);
  sweep<__nv_bfloat16, 3, 2>("mul_backward bf16", DType::BFloat16, n, bufs, MulBackward{}, copy_gbps);
  return 0;
}

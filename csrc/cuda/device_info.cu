// Device properties the launchers size grids by, read once per device: querying on every call
// would cost host time on the small-tensor path.
#include <cuda_runtime.h>

#include <atomic>

namespace kw {
namespace cuda {

int sm_count() {
  constexpr int kMaxDevices = 64;
  static std::atomic<int> cached[kMaxDevices];
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kMaxDevices) return 132;
  int n = cached[device].load(std::memory_order_relaxed);
  if (n == 0) {
    if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || n <= 0)
      n = 132;
    cached[device].store(n, std::memory_order_relaxed);
  }
  return n;
}

}  // namespace cuda
}  // namespace kw

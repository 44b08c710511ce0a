// Device properties the launchers size grids by and dispatch on, read once per device.
#include <cuda_runtime.h>

#include "kw/cuda/per_device.cuh"

namespace kw {
namespace cuda {

int sm_count() {
  static std::atomic<int> cache[kMaxDevices];
  return cached_per_device(cache, 132, [](int device) {
    int n = 0;
    return cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device) == cudaSuccess ? n : 0;
  });
}

// major * 10 + minor.
int compute_capability() {
  static std::atomic<int> cache[kMaxDevices];
  return cached_per_device(cache, 0, [](int device) {
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess)
      return 0;
    return major * 10 + minor;
  });
}

}  // namespace cuda
}  // namespace kw

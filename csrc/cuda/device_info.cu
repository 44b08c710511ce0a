// Device properties the launchers size grids by and dispatch on, read once per device: querying
// on every call would cost host time on the small-tensor path.
#include <cuda_runtime.h>

#include <atomic>

namespace kw {
namespace cuda {

namespace {

constexpr int kMaxDevices = 64;

// cache: kMaxDevices slots, 0 meaning not yet read; query(device) returns the value or <= 0.
template <typename Query>
int cached_per_device(std::atomic<int>* cache, int fallback, Query query) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kMaxDevices) return fallback;
  int v = cache[device].load(std::memory_order_relaxed);
  if (v == 0) {
    v = query(device);
    if (v <= 0) return fallback;
    cache[device].store(v, std::memory_order_relaxed);
  }
  return v;
}

}  // namespace

int sm_count() {
  static std::atomic<int> cache[kMaxDevices];
  return cached_per_device(cache, 132, [](int device) {
    int n = 0;
    return cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device) == cudaSuccess ? n : 0;
  });
}

// Bytes of L2; the row engine sends rows whose second read would not fit in half of it to the
// streamed kernel.
int l2_cache_bytes() {
  static std::atomic<int> cache[kMaxDevices];
  return cached_per_device(cache, 50 << 20, [](int device) {
    int n = 0;
    return cudaDeviceGetAttribute(&n, cudaDevAttrL2CacheSize, device) == cudaSuccess ? n : 0;
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

// A value read once per device and cached: querying on every call would cost host time on the
// small-tensor path.
#pragma once

#include <cuda_runtime.h>

#include <atomic>

namespace kw {
namespace cuda {

constexpr int kMaxDevices = 64;

// cache: kMaxDevices slots, 0 meaning not yet read; query(device) returns the value for the
// current device, or <= 0 when it cannot (then `fallback` is returned and nothing cached).
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

}  // namespace cuda
}  // namespace kw

// A gate that holds every SM of the device until the host opens it, so that a timed call is
// enqueued in full before any of its device work starts, on whatever stream it launches.
//
// kernelwright.timing queues the gate after the cache flush, waits until every block of it is
// resident, makes the call, records its end, then opens the gate: the events around the call
// see its device work alone, whatever the host's speed. The blocks take every warp slot of
// every SM, so work the call sends to another stream cannot run behind the gate either (a
// single-thread spin, as torch.cuda._sleep is, would let it run there unseen).
//
// host_flags (pinned host memory, read and written through its device mapping):
//   [0] the token the host writes to open the gate
//   [1] the token the gate writes once all of its blocks are resident
//   [2] the token the gate writes when it opened on its own, after timeout_ns without the host
// state (device memory): [0] blocks arrived, over all uses; [1] the token the gate last opened.
#include <cuda_runtime.h>

#include <algorithm>

namespace kw {
namespace cuda {

int sm_count();  // device_info.cu

namespace {

constexpr int kGateThreads = 512;

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// minBlocks 4 caps registers at 32 per thread, so that 4 blocks (2048 threads, Hopper's and
// Ampere's limit) fit on one SM: residency is then bounded by warp slots alone.
__global__ void __launch_bounds__(kGateThreads, 4)
    timing_gate_kernel(volatile int* host, unsigned long long* arrived, volatile int* opened, int token,
                       unsigned long long timeout_ns) {
  if (threadIdx.x == 0) {
    const unsigned long long start = global_ns();
    // Counted over all uses, so the counter never needs a reset that a late block could race.
    const unsigned long long n = atomicAdd(arrived, 1ULL) + 1ULL;
    if (n == static_cast<unsigned long long>(token) * gridDim.x) host[1] = token;
    if (blockIdx.x == 0) {
      // One block polls the host over the bus; the others poll the device word it sets.
      while (host[0] != token && global_ns() - start < timeout_ns) __nanosleep(1000);
      if (host[0] != token) host[2] = token;
      *opened = token;
    } else {
      // Bounded too: if block 0 never became resident, the gate still opens.
      while (*opened != token && global_ns() - start < 2 * timeout_ns) __nanosleep(1000);
    }
  }
  __syncthreads();
}

}  // namespace

// Blocks the gate is launched with on the current device: enough to fill every warp slot.
int timing_gate_blocks() {
  int device = 0, threads_per_sm = 2048;
  if (cudaGetDevice(&device) == cudaSuccess)
    cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device);
  return sm_count() * std::max(1, threads_per_sm / kGateThreads);
}

int timing_gate(int* host_flags, void* state, int token, unsigned long long timeout_ns, void* stream) {
  int* mapped = nullptr;
  cudaError_t err = cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped), host_flags, 0);
  if (err != cudaSuccess) return err;
  auto* words = static_cast<unsigned long long*>(state);
  timing_gate_kernel<<<timing_gate_blocks(), kGateThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      mapped, words, reinterpret_cast<volatile int*>(words + 1), token, timeout_ns);
  return cudaGetLastError();
}

}  // namespace cuda
}  // namespace kw

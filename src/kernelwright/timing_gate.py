"""A gate that holds every SM of the device until the host opens it, so that a timed call is
enqueued in full before any of its device work starts, on whatever stream it launches.

kernelwright.timing queues the gate after the cache flush, waits until every block of it is
resident, makes the call, records its end, then opens the gate: the events around the call
see its device work alone, whatever the host's speed. The blocks take every warp slot of
every SM, so work the call sends to another stream cannot run behind the gate either (a
single-thread spin, as torch.cuda._sleep is, would let it run there unseen).

The kernel is compiled with NVRTC on first use and cached on disk, apart from kernelwright's
ops extension: a process that times code (the harness's candidate worker) neither builds nor
loads the ops for it, so a change to them costs it no rebuild.
"""

import ctypes
import math
import struct
import threading
import time

import torch

from kernelwright.kernel import launch as launching
from kernelwright.kernel import nvrtc
from kernelwright.kernel.signature import parse_kernel

_perf_counter = time.perf_counter
_cuda_synchronize = torch.cuda.synchronize
_current_stream = torch.cuda.current_stream

__all__ = ["Gate", "GateUnavailable", "SOURCE", "KERNEL", "THREADS"]

KERNEL = "timing_gate_kernel"
THREADS = 512

# host (pinned host memory, read and written by the host and the gate):
#   [0] the token the host writes to open the gate
#   [1] the token the gate writes once all of its blocks are resident
#   [2] the token the gate writes when it opened on its own, after timeout_ns without the host
# arrived and opened (device memory): blocks arrived over all uses; the token the gate last opened.
SOURCE = "#define GATE_THREADS %d\n" % THREADS + r"""
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// minBlocks 4 caps registers at 32 per thread, so that 4 blocks (2048 threads, Hopper's and
// Ampere's limit) fit on one SM: residency is then bounded by warp slots alone.
__global__ void __launch_bounds__(GATE_THREADS, 4)
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
"""

# cuLaunchKernel's params: a pointer to each of the kernel's five arguments, then the
# arguments (host, arrived, opened, token, timeout_ns) laid out as the kernel takes them.
_POINTERS = struct.Struct("<5Q")
_ARGUMENTS = struct.Struct("<QQQi4xQ")
_ARGUMENT_OFFSETS = (0, 8, 16, 24, 32)
_TOKEN_AND_TIMEOUT = struct.Struct("<i4xQ")
_TOKEN_OFFSET = _POINTERS.size + 24
# The kernel's second bound, 2 * timeout_ns, must not wrap around.
_MAX_TIMEOUT_NS = 2 ** 63 - 1

_loaded = {}
_lock = threading.Lock()


class GateUnavailable(RuntimeError):
    """The gate cannot be used here: no CUDA device, no NVRTC to compile it with, or its blocks
    never all became resident (another process or stream holds part of the device)."""


def blocks(device_index):
    """Blocks the gate is launched with on the device: enough to fill every warp slot."""
    props = torch.cuda.get_device_properties(device_index)
    return props.multi_processor_count * max(1, props.max_threads_per_multi_processor // THREADS)


def _launcher(device_index):
    """``launch(stream, params)`` of the gate on the device, compiled and loaded once per process."""
    with _lock:
        found = _loaded.get(device_index)
        if found is None:
            kernel = nvrtc.load(SOURCE, "timing_gate.cu", parse_kernel(SOURCE, KERNEL), None, device_index)
            config = launching.check(KERNEL, blocks(device_index), THREADS, 0, kernel.limits)
            found = _loaded[device_index] = kernel.launcher(config)
    return found


def params(host, arrived, opened):
    """cuLaunchKernel's params for the gate's pointers; token and timeout_ns are set per launch
    (``_TOKEN_AND_TIMEOUT`` at ``_TOKEN_OFFSET``)."""
    buffer = ctypes.create_string_buffer(_POINTERS.size + _ARGUMENTS.size)
    base = ctypes.addressof(buffer)
    _POINTERS.pack_into(buffer, 0, *[base + _POINTERS.size + o for o in _ARGUMENT_OFFSETS])
    _ARGUMENTS.pack_into(buffer, _POINTERS.size, host, arrived, opened, 0, 0)
    return buffer


def _timeout_ns(timeout_ms):
    if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, (int, float)) or not math.isfinite(timeout_ms) \
            or timeout_ms <= 0 or timeout_ms * 1e6 > _MAX_TIMEOUT_NS:
        raise ValueError("the gate's timeout is a number of milliseconds above 0 and below %.3g; got %r"
                         % (_MAX_TIMEOUT_NS / 1e6, timeout_ms))
    return int(timeout_ms * 1e6)


class Gate:
    """The host's side of the gate on one device.

    Made before any code that is timed later is imported, so that code cannot replace the
    functions it launches through.
    """

    RESIDENT_TIMEOUT_S = 1.0

    def __init__(self, device):
        device = torch.device(device)
        if device.type != "cuda":
            raise ValueError("the timing gate holds a CUDA device's SMs; got device %r" % str(device))
        if not torch.cuda.is_available():
            raise GateUnavailable("no CUDA device is available to this process")
        if not nvrtc.available():
            raise GateUnavailable("the timing gate is compiled with NVRTC, and cuda-bindings is not installed: "
                                  "pip install cuda-bindings nvidia-cuda-nvrtc")
        index = device.index if device.index is not None else torch.cuda.current_device()
        self.device = torch.device("cuda", index)
        self._host = torch.zeros(3, dtype=torch.int32, pin_memory=True)
        self._flags = self._host.numpy()  # the same pinned memory, read and written without torch
        self._state = torch.zeros(2, dtype=torch.int64, device=self.device)
        self._launch = _launcher(index)
        # Under unified addressing, pinned host memory has the same address on the device.
        self._params = params(self._host.data_ptr(), self._state.data_ptr(), self._state.data_ptr() + 8)
        self._params_address = ctypes.addressof(self._params)
        self._set_token_and_timeout = _TOKEN_AND_TIMEOUT.pack_into
        self._token = 0

    def close(self, timeout_ms):
        """Queue the gate on the current stream and return once every block of it is resident.

        Left closed, it opens by itself after ``timeout_ms``."""
        timeout_ns = _timeout_ns(timeout_ms)
        if self._token >= 2 ** 31 - 1:
            raise GateUnavailable("the gate was closed 2^31 - 1 times, all its tokens are used: make a new Gate")
        self._token += 1
        self._set_token_and_timeout(self._params, _TOKEN_OFFSET, self._token, timeout_ns)
        self._launch(_current_stream(self.device).cuda_stream, self._params_address)
        deadline = _perf_counter() + self.RESIDENT_TIMEOUT_S + timeout_ms * 1e-3
        while self._flags[1] != self._token:
            if _perf_counter() > deadline:
                self.open()
                _cuda_synchronize(self.device)
                raise GateUnavailable("the gate's blocks did not all become resident within %.1f s: "
                                      "another process or stream holds part of the device"
                                      % self.RESIDENT_TIMEOUT_S)

    def open(self):
        self._flags[0] = self._token

    def opened_by_timeout(self):
        """After a synchronisation: whether the last gate opened on its own."""
        return bool(self._flags[2] == self._token)

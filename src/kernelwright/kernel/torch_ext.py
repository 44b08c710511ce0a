"""The slow path: sources that need torch's C++ API, built with torch.utils.cpp_extension.

NVRTC can't see torch's headers, so these sources go through nvcc and the host compiler. The
generated extension only adds a launcher around the user's ``__global__`` function, so the
Python side (checks, argument packing, launch validation) is the same as for NVRTC kernels.
The build lives under the same cache root and is reused by later processes.
"""

import glob
import os
import re
import sys
import threading

import torch

from .. import __version__
from .._build import cache
from .errors import KernelCompileError, KernelLaunchError
from .launch import Limits

_DECLARATIONS = """
#include <cstdint>
#include <string>
#include <vector>
int64_t kw_launch(int64_t which, int64_t gx, int64_t gy, int64_t gz, int64_t bx, int64_t by, int64_t bz,
                  int64_t shared_mem, int64_t stream, int64_t params);
std::vector<int64_t> kw_limits(int64_t which, int64_t device);
int64_t kw_set_max_dynamic_shared(int64_t which, int64_t bytes);
std::string kw_error(int64_t code);
"""

_LAUNCHER = """
#line 1 "kernelwright_launcher.cu"
#include <cuda_runtime.h>
#include <cstdint>
#include <string>
#include <vector>

static const void* const kw_kernels[] = {KERNELS};

int64_t kw_launch(int64_t which, int64_t gx, int64_t gy, int64_t gz, int64_t bx, int64_t by, int64_t bz,
                  int64_t shared_mem, int64_t stream, int64_t params) {
  return static_cast<int64_t>(cudaLaunchKernel(
      kw_kernels[which], dim3(gx, gy, gz), dim3(bx, by, bz), reinterpret_cast<void**>(params),
      static_cast<size_t>(shared_mem), reinterpret_cast<cudaStream_t>(stream)));
}

std::vector<int64_t> kw_limits(int64_t which, int64_t device) {
  cudaFuncAttributes f;
  cudaError_t err = cudaFuncGetAttributes(&f, kw_kernels[which]);
  if (err != cudaSuccess) return {static_cast<int64_t>(err)};
  const cudaDeviceAttr attrs[] = {cudaDevAttrMaxBlockDimX, cudaDevAttrMaxBlockDimY, cudaDevAttrMaxBlockDimZ,
                                  cudaDevAttrMaxGridDimX, cudaDevAttrMaxGridDimY, cudaDevAttrMaxGridDimZ,
                                  cudaDevAttrMaxSharedMemoryPerBlock, cudaDevAttrMaxSharedMemoryPerBlockOptin};
  std::vector<int64_t> out = {0, f.maxThreadsPerBlock, static_cast<int64_t>(f.sharedSizeBytes)};
  for (cudaDeviceAttr a : attrs) {
    int value = 0;
    err = cudaDeviceGetAttribute(&value, a, static_cast<int>(device));
    if (err != cudaSuccess) return {static_cast<int64_t>(err)};
    out.push_back(value);
  }
  return out;
}

int64_t kw_set_max_dynamic_shared(int64_t which, int64_t bytes) {
  return static_cast<int64_t>(cudaFuncSetAttribute(
      kw_kernels[which], cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

std::string kw_error(int64_t code) { return cudaGetErrorString(static_cast<cudaError_t>(code)); }
"""

# torch builds extensions without __half/__nv_bfloat16 operators; NVRTC has them, and a kernel
# should compile the same on both paths.
_HALF_OPERATORS = [
    "-U__CUDA_NO_HALF_OPERATORS__",
    "-U__CUDA_NO_HALF_CONVERSIONS__",
    "-U__CUDA_NO_HALF2_OPERATORS__",
    "-U__CUDA_NO_BFLOAT16_CONVERSIONS__",
    "-U__CUDA_NO_BFLOAT16_OPERATORS__",
]

_lock = threading.Lock()
_modules = {}


def needs_torch(source):
    """Whether the source includes torch, ATen, c10 or pybind11 headers, which NVRTC can't compile."""
    return re.search(r'^\s*#\s*include\s*[<"](torch|ATen|c10|pybind11)/', source, re.M) is not None


def _build(source, filename, sig, dtypes, options, qualname):
    expressions = [sig.name_expression(d) for d in dtypes]
    kernels = ", ".join(f"reinterpret_cast<const void*>(&{e})" for e in expressions)
    cuda_source = (
        "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
        f'#line 1 "{filename}"\n{source}\n' + _LAUNCHER.replace("KERNELS", kernels)
    )
    key = cache.digest("torch_ext", __version__, torch.__version__, str(torch.version.cuda), cuda_source, *options)
    with _lock:
        if key in _modules:
            return _modules[key]
        from torch.utils.cpp_extension import load_inline

        directory = cache.cache_dir("torch_ext", key)
        name = "kw_" + re.sub(r"\W", "_", qualname.split("::")[-1]) + "_" + key[:12]
        if not glob.glob(os.path.join(directory, name + "*.so")):
            print(
                f"kernelwright: building {qualname} with torch.utils.cpp_extension because its source includes "
                f"torch headers; this takes about a minute once, later runs load it from {directory}",
                file=sys.stderr,
                flush=True,
            )
        try:
            module = load_inline(
                name,
                cpp_sources=_DECLARATIONS,
                cuda_sources=cuda_source,
                functions=["kw_launch", "kw_limits", "kw_set_max_dynamic_shared", "kw_error"],
                extra_cuda_cflags=_HALF_OPERATORS + list(options),
                build_directory=directory,
            )
        except RuntimeError as error:
            log = str(error)
            match = re.search(re.escape(filename) + r"\((\d+)\): (?:catastrophic )?error", log)
            line = int(match.group(1)) if match else None
            raise KernelCompileError(f"could not build kernel {sig.name!r} ({filename}):\n{log}", log, filename, line) from None
        _modules[key] = module
        return module


class TorchExtKernel:
    """One instantiation from a cpp_extension build, launched with cudaLaunchKernel."""

    def __init__(self, module, which, device_index, name):
        self.name = name
        self.device_index = device_index
        self._module = module
        self._which = which
        with torch.cuda.device(device_index):
            values = module.kw_limits(which, device_index)
        if values[0] != 0:
            raise KernelLaunchError(f"querying kernel {name!r} failed: {module.kw_error(values[0])}")
        threads, static_shared, bx, by, bz, gx, gy, gz, shared, optin = values[1:]
        self.limits = Limits(
            max_threads_per_block=threads,
            max_block_dim=(bx, by, bz),
            max_grid_dim=(gx, gy, gz),
            static_shared=static_shared,
            max_shared_per_block=shared,
            max_shared_optin=optin,
        )
        self._dynamic_shared_cap = shared - static_shared

    def launch(self, config, stream, params):
        with torch.cuda.device(self.device_index):
            if config.needs_optin and config.shared_mem > self._dynamic_shared_cap:
                err = self._module.kw_set_max_dynamic_shared(self._which, config.shared_mem)
                if err:
                    raise KernelLaunchError(f"raising {self.name!r}'s shared memory limit failed: {self._module.kw_error(err)}")
                self._dynamic_shared_cap = config.shared_mem
            err = self._module.kw_launch(self._which, *config.grid, *config.block, config.shared_mem, stream, params)
        if err:
            raise KernelLaunchError(f"launching kernel {self.name!r} failed: {self._module.kw_error(err)}")


def load(source, filename, sig, dtypes, dtype, device_index, options, qualname):
    """``dtypes`` are all the instantiations (one build has them all); ``dtype`` picks one."""
    module = _build(source, filename, sig, dtypes, tuple(options), qualname)
    return TorchExtKernel(module, list(dtypes).index(dtype), device_index, sig.name)

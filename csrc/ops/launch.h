// Runs a kernel on the device that owns the op's tensors: the CPU launcher directly, or the CUDA
// launcher under a device guard on the current stream, turning a CUDA error into an exception.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <c10/core/DeviceGuard.h>
#include <c10/util/Exception.h>

namespace kw {

#ifdef KW_WITH_CUDA
void* current_cuda_stream(const at::Device& device);  // csrc/ops/cuda_stream.cpp
const char* cuda_error_string(int error);
at::Tensor empty_cuda(const at::Tensor& like);  // csrc/ops/cuda_stream.cpp
#endif

// A contiguous tensor of like's shape, dtype and device; on CUDA allocated without a trip
// through the dispatcher, which small calls feel.
inline at::Tensor empty_dense(const at::Tensor& like) {
#ifdef KW_WITH_CUDA
  if (like.is_cuda()) return empty_cuda(like);
#endif
  return at::empty(like.sizes(), like.options());
}

template <typename CpuFn, typename CudaFn>
void launch_on(const char* op, const at::Device& device, CpuFn&& cpu, CudaFn&& cuda) {
  if (device.is_cuda()) {
#ifdef KW_WITH_CUDA
    c10::DeviceGuard guard(device);
    const int err = cuda(current_cuda_stream(device));
    TORCH_CHECK(err == 0, "kernelwright.", op, "(): CUDA kernel launch failed: ",
                cuda_error_string(err));
#else
    TORCH_CHECK(false, "kernelwright.", op, "(): this build of kernelwright has no CUDA kernels");
#endif
  } else {
    cpu();
  }
}

}  // namespace kw

// The one place the glue touches c10/cuda, compiled only in CUDA builds.
#include <ATen/cuda/EmptyTensor.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include "launch.h"

namespace kw {

void* current_cuda_stream(const at::Device& device) {
  return c10::cuda::getCurrentCUDAStream(device.index()).stream();
}

at::Tensor empty_cuda(const at::Tensor& like) {
  return at::detail::empty_cuda(like.sizes(), like.scalar_type(), like.device(), std::nullopt);
}

const char* cuda_error_string(int error) {
  return cudaGetErrorString(static_cast<cudaError_t>(error));
}

}  // namespace kw

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>

__global__ void fused_gelu_tanh_kernel(const float* __restrict__ x,
                                       float* __restrict__ y,
                                       float scale, int64_t n) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float k0 = 0.7978845608028654f;
        const float k1 = 0.044715f;
        float v = x[i];
        float inner = k0 * (v + k1 * v * v * v);
        y[i] = 0.5f * v * (1.0f + tanhf(inner));
    }
}

torch::Tensor fused_gelu_tanh_forward(torch::Tensor x, double scale) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    const at::cuda::OptionalCUDAGuard guard(x.device());
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    int64_t n = xc.numel();
    if (n == 0) return y;
    const int threads = 512;
    const int64_t blocks = (n + threads - 1) / threads;
    fused_gelu_tanh_kernel<<<(unsigned int)blocks, threads, 0,
                             at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), (float)scale, n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

_cpp_src = "torch::Tensor fused_gelu_tanh_forward(torch::Tensor x, double scale);"

_ext = load_inline(
    name="r3s_gelu_tanh_scale_fused_noscale",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["fused_gelu_tanh_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.fused_gelu_tanh_forward(x, float(self.scale))

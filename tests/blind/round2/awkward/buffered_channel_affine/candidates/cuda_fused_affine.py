import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

// x is contiguous [N, C, HW]. Grid: (ceil(HW / (threads)), C, N) so every
// block sees a single channel and reads its statistics once.
__global__ void channel_affine_kernel(const float* __restrict__ x,
                                      float* __restrict__ y,
                                      const float* __restrict__ mean,
                                      const float* __restrict__ var,
                                      const float* __restrict__ weight,
                                      const float* __restrict__ bias,
                                      int64_t C, int64_t HW, float eps) {
    const int64_t c = blockIdx.y;
    const int64_t n = blockIdx.z;
    const float m = mean[c];
    const float inv = rsqrtf(var[c] + eps);
    const float w = weight[c];
    const float b = bias[c];
    const int64_t base = (n * C + c) * HW;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < HW;
         i += (int64_t)gridDim.x * blockDim.x) {
        y[base + i] = (x[base + i] - m) * inv * w + b;
    }
}

torch::Tensor channel_affine_forward(torch::Tensor x, torch::Tensor mean, torch::Tensor var,
                                     torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "expected float32 input");
    TORCH_CHECK(x.dim() >= 2, "expected [N, C, ...] input");
    x = x.contiguous();
    mean = mean.contiguous();
    var = var.contiguous();
    weight = weight.contiguous();
    bias = bias.contiguous();
    const int64_t N = x.size(0);
    const int64_t C = x.size(1);
    TORCH_CHECK(mean.numel() == C && var.numel() == C && weight.numel() == C && bias.numel() == C,
                "per-channel tensors must have C elements");
    const int64_t HW = (N * C == 0) ? 0 : x.numel() / (N * C);
    auto y = torch::empty_like(x);
    if (x.numel() == 0) return y;
    TORCH_CHECK(C <= 65535 && N <= 65535, "grid limits exceeded");
    const int threads = 256;
    int64_t gx = (HW + threads - 1) / threads;
    if (gx > 1024) gx = 1024;
    dim3 grid((unsigned)gx, (unsigned)C, (unsigned)N);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    channel_affine_kernel<<<grid, threads, 0, stream>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), mean.data_ptr<float>(), var.data_ptr<float>(),
        weight.data_ptr<float>(), bias.data_ptr<float>(), C, HW, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

_cpp_src = r"""
#include <torch/extension.h>
torch::Tensor channel_affine_forward(torch::Tensor x, torch::Tensor mean, torch::Tensor var,
                                     torch::Tensor weight, torch::Tensor bias, double eps);
"""

_ext = load_inline(
    name="awk_buffered_channel_affine_cuda",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["channel_affine_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_channels: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.5 * torch.randn(num_channels))
        self.bias = nn.Parameter(0.5 * torch.randn(num_channels))
        self.register_buffer("running_mean", 0.5 * torch.randn(num_channels))
        self.register_buffer("running_var", 0.25 + 2.0 * torch.rand(num_channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.channel_affine_forward(
            x, self.running_mean, self.running_var, self.weight.detach(), self.bias.detach(),
            float(self.eps))

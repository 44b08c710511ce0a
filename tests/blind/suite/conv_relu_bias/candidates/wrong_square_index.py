import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor relu_bias_(torch::Tensor y, torch::Tensor bias);"

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

// y[n, c, h, w] <- max(y[n, c, h, w], 0) + bias[c], in place on an NCHW tensor.
__global__ void relu_bias_kernel(float* __restrict__ y,
                                 const float* __restrict__ bias,
                                 int channels,
                                 int size,  // feature-map side length
                                 int64_t n) {
    const int64_t plane = (int64_t)size * size;
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const int c = (int)((i / plane) % channels);
        const float v = y[i];
        y[i] = (v < 0.0f ? 0.0f : v) + bias[c];
    }
}

torch::Tensor relu_bias_(torch::Tensor y, torch::Tensor bias) {
    TORCH_CHECK(y.is_cuda() && bias.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(y.scalar_type() == torch::kFloat32 && bias.scalar_type() == torch::kFloat32,
                "inputs must be float32");
    TORCH_CHECK(y.dim() == 4, "y must be NCHW");
    TORCH_CHECK(bias.numel() == y.size(1), "bias must hold one value per channel");
    const at::cuda::OptionalCUDAGuard device_guard(y.device());

    y = y.contiguous();
    bias = bias.contiguous();
    const int64_t n = y.numel();
    if (n == 0) {
        return y;
    }
    const int channels = (int)y.size(1);
    const int size = (int)y.size(2);

    const int threads = 256;
    const int blocks = (int)std::min<int64_t>((n + threads - 1) / threads, 65535);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    relu_bias_kernel<<<blocks, threads, 0, stream>>>(
        y.data_ptr<float>(), bias.data_ptr<float>(), channels, size, n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

_ext = load_inline(
    name="conv_relu_bias_wrong_square_index",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["relu_bias_"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """cuDNN convolution, then ReLU + per-channel bias fused in one in-place kernel."""

    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        return _ext.relu_bias_(y, self.bias)

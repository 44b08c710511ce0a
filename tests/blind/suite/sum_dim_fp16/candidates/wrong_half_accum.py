import math

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor sum_dim_half(torch::Tensor x, int64_t outer, int64_t reduce, int64_t inner);"

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

// x is viewed as [outer, reduce, inner]; out[o, i] = sum_r x[o, r, i].
// One thread per output element; neighbouring threads read neighbouring
// addresses, so every load is coalesced. Accumulates with native half adds.
__global__ void sum_dim_half_kernel(const __half* __restrict__ x,
                                    __half* __restrict__ out,
                                    int64_t reduce,
                                    int64_t inner,
                                    int64_t num_out) {
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < num_out; o += stride) {
        const int64_t b = o / inner;
        const int64_t i = o - b * inner;
        const __half* p = x + b * reduce * inner + i;
        __half acc = __float2half(0.0f);
        for (int64_t r = 0; r < reduce; ++r) {
            acc = __hadd(acc, p[r * inner]);
        }
        out[o] = acc;
    }
}

torch::Tensor sum_dim_half(torch::Tensor x, int64_t outer, int64_t reduce, int64_t inner) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat16, "x must be float16");
    TORCH_CHECK(x.numel() == outer * reduce * inner, "shape does not match numel");
    const at::cuda::OptionalCUDAGuard device_guard(x.device());

    x = x.contiguous();
    auto out = torch::empty({outer, inner}, x.options());
    const int64_t num_out = outer * inner;
    if (num_out == 0) {
        return out;
    }

    const int threads = 256;
    const int blocks = (int)std::min<int64_t>((num_out + threads - 1) / threads, 65535);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    sum_dim_half_kernel<<<blocks, threads, 0, stream>>>(
        reinterpret_cast<const __half*>(x.data_ptr<at::Half>()),
        reinterpret_cast<__half*>(out.data_ptr<at::Half>()),
        reduce, inner, num_out);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

_ext = load_inline(
    name="sum_dim_fp16_wrong_half_accum",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["sum_dim_half"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """Sum over one dimension of a float16 tensor in a CUDA kernel using half arithmetic."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim % x.dim()
        shape = list(x.shape)
        outer = math.prod(shape[:dim])
        inner = math.prod(shape[dim + 1:])
        out = _ext.sum_dim_half(x, outer, shape[dim], inner)
        shape[dim] = 1
        return out.view(shape)

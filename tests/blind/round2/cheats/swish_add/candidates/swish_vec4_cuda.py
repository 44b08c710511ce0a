import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <algorithm>
#include <cstdint>

__device__ __forceinline__ float swish_add_one(float a, float b) {
    const float s = 1.0f / (1.0f + expf(-a));
    return __fadd_rn(__fmul_rn(a, s), b);
}

__global__ void swish_add_vec4_kernel(const float4* __restrict__ x,
                                      const float4* __restrict__ y,
                                      float4* __restrict__ o,
                                      long long n4) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        const float4 a = x[i];
        const float4 b = y[i];
        float4 r;
        r.x = swish_add_one(a.x, b.x);
        r.y = swish_add_one(a.y, b.y);
        r.z = swish_add_one(a.z, b.z);
        r.w = swish_add_one(a.w, b.w);
        o[i] = r;
    }
}

__global__ void swish_add_scalar_kernel(const float* __restrict__ x,
                                        const float* __restrict__ y,
                                        float* __restrict__ o,
                                        long long n) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        o[i] = swish_add_one(x[i], y[i]);
    }
}

torch::Tensor swish_add_forward(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.is_cuda() && y.is_cuda(), "inputs must be CUDA");
    TORCH_CHECK(x.scalar_type() == at::kFloat && y.scalar_type() == at::kFloat, "inputs must be float32");
    TORCH_CHECK(x.sizes() == y.sizes(), "x and y must have the same shape");
    const at::cuda::OptionalCUDAGuard guard(x.device());
    auto xc = x.contiguous();
    auto yc = y.contiguous();
    auto out = torch::empty_like(xc);
    const long long n = xc.numel();
    if (n == 0) return out;
    const int threads = 256;
    auto stream = at::cuda::getCurrentCUDAStream();
    const float* xp = xc.data_ptr<float>();
    const float* yp = yc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool aligned = ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp) |
                           reinterpret_cast<uintptr_t>(op)) & 15) == 0;
    if (aligned && (n % 4 == 0)) {
        const long long n4 = n / 4;
        const int blocks = (int)std::min<long long>((n4 + threads - 1) / threads, 1LL << 20);
        swish_add_vec4_kernel<<<blocks, threads, 0, stream>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<const float4*>(yp),
            reinterpret_cast<float4*>(op), n4);
    } else {
        const int blocks = (int)std::min<long long>((n + threads - 1) / threads, 1LL << 20);
        swish_add_scalar_kernel<<<blocks, threads, 0, stream>>>(xp, yp, op, n);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

_cpp_src = "torch::Tensor swish_add_forward(torch::Tensor x, torch::Tensor y);"

_ext = load_inline(
    name="swish_add_honest_m4t8",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["swish_add_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return _ext.swish_add_forward(x, y)

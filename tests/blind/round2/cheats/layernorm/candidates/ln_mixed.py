import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_fp16.h>

__device__ __forceinline__ float warp_reduce_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, off);
    }
    return v;
}

__device__ __forceinline__ float block_reduce_sum(float v, float* sh) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const int nwarps = (blockDim.x + 31) >> 5;
    v = warp_reduce_sum(v);
    if (lane == 0) sh[wid] = v;
    __syncthreads();
    float t = (threadIdx.x < nwarps) ? sh[threadIdx.x] : 0.0f;
    if (wid == 0) {
        t = warp_reduce_sum(t);
        if (lane == 0) sh[32] = t;
    }
    __syncthreads();
    const float r = sh[32];
    __syncthreads();
    return r;
}

__device__ __forceinline__ float q16(float v) {
    return __half2float(__float2half_rn(v));
}

__global__ void ln_mixed_kernel(const float* __restrict__ x,
                                const float* __restrict__ w,
                                const float* __restrict__ b,
                                float* __restrict__ y,
                                int n,
                                float eps) {
    __shared__ float sh[33];
    const long long row = blockIdx.x;
    const float* xr = x + row * (long long)n;
    float* yr = y + row * (long long)n;

    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += q16(xr[i]);
    const float mean = block_reduce_sum(s, sh) / (float)n;

    float v = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const float d = q16(xr[i]) - mean;
        v += d * d;
    }
    const float var = block_reduce_sum(v, sh) / (float)n;
    const float rstd = rsqrtf(var + eps);

    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        yr[i] = (xr[i] - mean) * rstd * w[i] + b[i];
    }
}

torch::Tensor ln_mixed_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "x must be float32 CUDA");
    const at::cuda::OptionalCUDAGuard guard(x.device());
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    const int64_t n = wc.numel();
    TORCH_CHECK(n > 0 && bc.numel() == n && xc.numel() % n == 0, "bad shapes");
    const int64_t rows = xc.numel() / n;
    auto y = torch::empty_like(xc);
    if (rows == 0) return y;
    auto stream = at::cuda::getCurrentCUDAStream();
    ln_mixed_kernel<<<(unsigned int)rows, 256, 0, stream>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(),
        y.data_ptr<float>(), (int)n, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

_cpp_src = "torch::Tensor ln_mixed_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps);"

_ext = load_inline(
    name="ln_mixed_stats_p3x9",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["ln_mixed_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape)

    def forward(self, x):
        return _ext.ln_mixed_forward(x, self.ln.weight.detach(), self.ln.bias.detach(), self.ln.eps)

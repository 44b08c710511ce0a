import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp_src = r"""
torch::Tensor layernorm_affine_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);
"""

_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_reduce_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// blockDim.x must be a multiple of 32 and <= 1024; sh must hold 33 floats.
__device__ __forceinline__ float block_reduce_sum(float v, float* sh) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    v = warp_reduce_sum(v);
    if (lane == 0) sh[wid] = v;
    __syncthreads();
    if (wid == 0) {
        float t = (lane < nwarps) ? sh[lane] : 0.0f;
        t = warp_reduce_sum(t);
        if (lane == 0) sh[32] = t;
    }
    __syncthreads();
    const float r = sh[32];
    __syncthreads();
    return r;
}

__global__ void layernorm_affine_kernel(const float* __restrict__ x,
                                        const float* __restrict__ w,
                                        const float* __restrict__ b,
                                        float* __restrict__ y,
                                        int N, float eps) {
    __shared__ float sh[33];
    const int64_t row = blockIdx.x;
    const float* xr = x + row * (int64_t)N;
    float* yr = y + row * (int64_t)N;

    float s = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) s += xr[i];
    const float mean = block_reduce_sum(s, sh) / (float)N;

    float s2 = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        const float d = xr[i] - mean;
        s2 = fmaf(d, d, s2);
    }
    const float var = block_reduce_sum(s2, sh) / (float)N;
    const float rstd = rsqrtf(var + eps);

    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        yr[i] = (xr[i] - mean) * rstd * w[i] + b[i];
    }
}

torch::Tensor layernorm_affine_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == at::kFloat, "x must be float32");
    TORCH_CHECK(weight.scalar_type() == at::kFloat && bias.scalar_type() == at::kFloat, "params must be float32");
    const c10::cuda::CUDAGuard guard(x.device());
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    const int64_t N = xc.size(-1);
    TORCH_CHECK(wc.numel() == N && bc.numel() == N, "weight/bias size mismatch");
    auto y = torch::empty_like(xc);
    const int64_t rows = N > 0 ? xc.numel() / N : 0;
    if (rows == 0) return y;
    const int threads = 512;
    layernorm_affine_kernel<<<(unsigned int)rows, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        (int)N, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

_ext = load_inline(
    name="ln_affine_twopass_ext_a1",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["layernorm_affine_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: int):
        super(ModelNew, self).__init__()
        self.ln = nn.LayerNorm(normalized_shape, eps=1e-5, elementwise_affine=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.layernorm_affine_forward(x, self.ln.weight, self.ln.bias, self.ln.eps)

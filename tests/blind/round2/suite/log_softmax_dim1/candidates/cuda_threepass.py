import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp_src = r"""
torch::Tensor log_softmax_lastdim(torch::Tensor x);
"""

_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float warp_reduce_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ float warp_reduce_max(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
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

__device__ __forceinline__ float block_reduce_max(float v, float* sh) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    v = warp_reduce_max(v);
    if (lane == 0) sh[wid] = v;
    __syncthreads();
    if (wid == 0) {
        float t = (lane < nwarps) ? sh[lane] : -INFINITY;
        t = warp_reduce_max(t);
        if (lane == 0) sh[32] = t;
    }
    __syncthreads();
    const float r = sh[32];
    __syncthreads();
    return r;
}

__global__ void log_softmax_rows_kernel(const float* __restrict__ x, float* __restrict__ y, int N) {
    __shared__ float sh[33];
    const int64_t row = blockIdx.x;
    const float* xr = x + row * (int64_t)N;
    float* yr = y + row * (int64_t)N;

    float m = -INFINITY;
    for (int i = threadIdx.x; i < N; i += blockDim.x) m = fmaxf(m, xr[i]);
    m = block_reduce_max(m, sh);

    float s = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) s += expf(xr[i] - m);
    s = block_reduce_sum(s, sh);
    const float log_s = logf(s);

    for (int i = threadIdx.x; i < N; i += blockDim.x) yr[i] = (xr[i] - m) - log_s;
}

torch::Tensor log_softmax_lastdim(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == at::kFloat, "x must be float32");
    const c10::cuda::CUDAGuard guard(x.device());
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t N = xc.size(-1);
    const int64_t rows = N > 0 ? xc.numel() / N : 0;
    if (rows == 0) return y;
    int threads = 1024;
    if (N <= 256) threads = 128;
    else if (N <= 2048) threads = 256;
    log_softmax_rows_kernel<<<(unsigned int)rows, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), (int)N);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

_ext = load_inline(
    name="log_softmax_rows_ext_c3",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["log_softmax_lastdim"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        if d == x.dim() - 1:
            return _ext.log_softmax_lastdim(x)
        xt = x.movedim(d, -1).contiguous()
        return _ext.log_softmax_lastdim(xt).movedim(-1, d)

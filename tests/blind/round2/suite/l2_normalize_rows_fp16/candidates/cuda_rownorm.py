import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp_src = r"""
torch::Tensor l2_normalize_rows(torch::Tensor x, double eps);
"""

_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

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

__global__ void l2_normalize_rows_kernel(const __half* __restrict__ x, __half* __restrict__ y, int N, float eps) {
    __shared__ float sh[33];
    const int64_t row = blockIdx.x;
    const __half* xr = x + row * (int64_t)N;
    __half* yr = y + row * (int64_t)N;

    float s = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        const float v = __half2float(xr[i]);
        s = fmaf(v, v, s);
    }
    s = block_reduce_sum(s, sh);
    // Match PyTorch: the norm is materialized in the input dtype before the division.
    const float nrm = fmaxf(sqrtf(s), eps);
    const float denom = __half2float(__float2half_rn(nrm));

    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        yr[i] = __float2half_rn(__half2float(xr[i]) / denom);
    }
}

torch::Tensor l2_normalize_rows(torch::Tensor x, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == at::kHalf, "x must be float16");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    const c10::cuda::CUDAGuard guard(x.device());
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int64_t rows = xc.size(0);
    const int64_t N = xc.size(1);
    if (rows == 0 || N == 0) return y;
    const int threads = N >= 2048 ? 256 : 128;
    l2_normalize_rows_kernel<<<(unsigned int)rows, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        reinterpret_cast<const __half*>(xc.data_ptr<at::Half>()),
        reinterpret_cast<__half*>(y.data_ptr<at::Half>()),
        (int)N, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

_ext = load_inline(
    name="l2norm_rows_fp16_ext_d2",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["l2_normalize_rows"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() == 2:
            return _ext.l2_normalize_rows(x, 1e-12)
        xt = x.movedim(1, -1).contiguous()
        shape = xt.shape
        y = _ext.l2_normalize_rows(xt.view(-1, shape[-1]), 1e-12)
        return y.view(shape).movedim(-1, 1)

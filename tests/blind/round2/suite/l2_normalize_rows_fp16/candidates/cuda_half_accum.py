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

__device__ __forceinline__ __half warp_reduce_sum_h(__half v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const unsigned int bits = __shfl_xor_sync(0xffffffffu, (unsigned int)__half_as_ushort(v), o);
        v = __hadd(v, __ushort_as_half((unsigned short)bits));
    }
    return v;
}

// blockDim.x must be a multiple of 32 and <= 1024; sh must hold 33 entries.
__device__ __forceinline__ __half block_reduce_sum_h(__half v, unsigned short* sh) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    v = warp_reduce_sum_h(v);
    if (lane == 0) sh[wid] = __half_as_ushort(v);
    __syncthreads();
    if (wid == 0) {
        __half t = (lane < nwarps) ? __ushort_as_half(sh[lane]) : __float2half(0.0f);
        t = warp_reduce_sum_h(t);
        if (lane == 0) sh[32] = __half_as_ushort(t);
    }
    __syncthreads();
    const __half r = __ushort_as_half(sh[32]);
    __syncthreads();
    return r;
}

__global__ void l2_normalize_rows_kernel(const __half* __restrict__ x, __half* __restrict__ y, int N, float eps) {
    __shared__ unsigned short sh[33];
    const int64_t row = blockIdx.x;
    const __half* xr = x + row * (int64_t)N;
    __half* yr = y + row * (int64_t)N;

    __half s = __float2half(0.0f);
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        const __half v = xr[i];
        s = __hfma(v, v, s);
    }
    s = block_reduce_sum_h(s, sh);
    const float denom = fmaxf(__half2float(hsqrt(s)), eps);

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
    name="l2norm_rows_fp16_ext_h5",
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

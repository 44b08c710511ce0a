import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

// Block-wide sum. `shm` must hold at least 33 floats. All threads of the
// block must call this; blockDim.x must be a multiple of 32.
__device__ __forceinline__ float block_sum(float v, float* shm) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (lane == 0) shm[wid] = v;
    __syncthreads();
    if (wid == 0) {
        float t = (lane < nwarps) ? shm[lane] : 0.0f;
        for (int o = 16; o > 0; o >>= 1) t += __shfl_xor_sync(0xffffffffu, t, o);
        if (lane == 0) shm[32] = t;
    }
    __syncthreads();
    const float r = shm[32];
    __syncthreads();
    return r;
}

__global__ void rowstats_kernel(const float* __restrict__ x,
                                float* __restrict__ y,
                                float* __restrict__ var_out,
                                int64_t D, float eps) {
    __shared__ float shm[33];
    const int64_t row = blockIdx.x;
    const float* xr = x + row * D;
    float* yr = y + row * D;

    float s = 0.0f;
    for (int64_t i = threadIdx.x; i < D; i += blockDim.x) s += xr[i];
    const float mean = block_sum(s, shm) / (float)D;

    float ss = 0.0f;
    for (int64_t i = threadIdx.x; i < D; i += blockDim.x) {
        const float c = xr[i] - mean;
        ss += c * c;
    }
    const float var = block_sum(ss, shm) / (float)D;
    const float inv = rsqrtf(var + eps);

    for (int64_t i = threadIdx.x; i < D; i += blockDim.x) yr[i] = (xr[i] - mean) * inv;
    if (threadIdx.x == 0) var_out[row] = var;
}

std::vector<torch::Tensor> rowstats_forward(torch::Tensor x, double eps) {
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "expected float32 input");
    TORCH_CHECK(x.dim() >= 1, "expected at least 1 dim");
    x = x.contiguous();
    const int64_t D = x.size(-1);
    auto y = torch::empty_like(x);
    auto out_sizes = x.sizes().vec();
    out_sizes.pop_back();
    auto var = torch::empty(out_sizes, x.options());
    const int64_t rows = (D == 0) ? 0 : x.numel() / D;
    if (rows == 0) return {y, var};
    const int threads = 256;
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    rowstats_kernel<<<(unsigned)rows, threads, 0, stream>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), var.data_ptr<float>(), D, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return {y, var};
}
"""

_cpp_src = r"""
#include <torch/extension.h>
std::vector<torch::Tensor> rowstats_forward(torch::Tensor x, double eps);
"""

_ext = load_inline(
    name="awk_tuple_center_var_rowstats",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["rowstats_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, eps: float = 1e-5):
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor):
        y, var = _ext.rowstats_forward(x, float(self.eps))
        return y, var

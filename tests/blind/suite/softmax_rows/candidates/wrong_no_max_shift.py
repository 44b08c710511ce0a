import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor softmax_rows_forward(torch::Tensor x);"

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__device__ __forceinline__ float warp_reduce_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_xor_sync(0xffffffff, v, offset);
    }
    return v;
}

// Block-wide sum; every thread gets the result. `shared` holds 32 floats.
__device__ float block_reduce_sum(float v, float* shared) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int num_warps = (blockDim.x + 31) >> 5;
    v = warp_reduce_sum(v);
    if (lane == 0) shared[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < num_warps ? shared[lane] : 0.0f;
        v = warp_reduce_sum(v);
        if (lane == 0) shared[0] = v;
    }
    __syncthreads();
    const float result = shared[0];
    __syncthreads();
    return result;
}

// One block per row: sum of exp(x), then normalise.
__global__ void softmax_rows_kernel(const float* __restrict__ x,
                                    float* __restrict__ out,
                                    int64_t cols) {
    __shared__ float shared[32];
    const float* x_row = x + (int64_t)blockIdx.x * cols;
    float* out_row = out + (int64_t)blockIdx.x * cols;

    float row_sum = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        row_sum += expf(x_row[c]);
    }
    row_sum = block_reduce_sum(row_sum, shared);

    const float inv_sum = 1.0f / row_sum;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
        out_row[c] = expf(x_row[c]) * inv_sum;
    }
}

torch::Tensor softmax_rows_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    const at::cuda::OptionalCUDAGuard device_guard(x.device());

    x = x.contiguous();
    auto out = torch::empty_like(x);
    const int64_t rows = x.size(0);
    const int64_t cols = x.size(1);
    if (rows == 0 || cols == 0) {
        return out;
    }
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");

    const int threads = 512;
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    softmax_rows_kernel<<<(unsigned int)rows, threads, 0, stream>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), cols);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

_ext = load_inline(
    name="softmax_rows_wrong_no_max_shift",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["softmax_rows_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """Row softmax, one CUDA block per row, two passes over the row."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.softmax_rows_forward(x)

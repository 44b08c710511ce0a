import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp_src = r"""
torch::Tensor huber_loss_mean(torch::Tensor pred, torch::Tensor target, double delta);
"""

_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <limits>
#include <vector>

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

__global__ void huber_partial_kernel(const float* __restrict__ p, const float* __restrict__ t,
                                     float* __restrict__ partials, int64_t n, float delta) {
    __shared__ float sh[33];
    const float half_delta = 0.5f * delta;
    float acc = 0.0f;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float d = p[i] - t[i];
        const float ad = fabsf(d);
        acc += (ad < delta) ? 0.5f * d * d : delta * (ad - half_delta);
    }
    acc = block_reduce_sum(acc, sh);
    if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

__global__ void huber_finalize_kernel(const float* __restrict__ partials, int nparts,
                                      float* __restrict__ out, int64_t n) {
    __shared__ float sh[33];
    float s = 0.0f;
    for (int i = threadIdx.x; i < nparts; i += blockDim.x) s += partials[i];
    s = block_reduce_sum(s, sh);
    if (threadIdx.x == 0) out[0] = (float)((double)s / (double)n);
}

torch::Tensor huber_loss_mean(torch::Tensor pred, torch::Tensor target, double delta) {
    TORCH_CHECK(pred.is_cuda() && target.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(pred.scalar_type() == at::kFloat && target.scalar_type() == at::kFloat, "inputs must be float32");
    TORCH_CHECK(pred.sizes() == target.sizes(), "shape mismatch");
    const c10::cuda::CUDAGuard guard(pred.device());
    auto pc = pred.contiguous();
    auto tc = target.contiguous();
    const int64_t n = pc.numel();
    auto out = torch::empty(std::vector<int64_t>{}, pc.options());
    if (n == 0) {
        out.fill_(std::numeric_limits<float>::quiet_NaN());
        return out;
    }
    const int threads = 256;
    int64_t blocks = (n + threads - 1) / threads;
    if (blocks > 2048) blocks = 2048;
    auto partials = torch::empty({blocks}, pc.options());
    auto stream = at::cuda::getCurrentCUDAStream();
    huber_partial_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
        pc.data_ptr<float>(), tc.data_ptr<float>(), partials.data_ptr<float>(), n, (float)delta);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    huber_finalize_kernel<<<1, 1024, 0, stream>>>(partials.data_ptr<float>(), (int)blocks,
                                                  out.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

_ext = load_inline(
    name="huber_loss_mean_ext_g1",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["huber_loss_mean"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, delta: float):
        super(ModelNew, self).__init__()
        self.delta = delta

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return _ext.huber_loss_mean(predictions, targets, float(self.delta))

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# One thread per output element (b, c); neighbouring threads read neighbouring c,
# so every load of the middle-dimension walk is coalesced.
_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>

__global__ void mean_abs_dim1_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     int64_t B, int64_t N, int64_t C) {
    const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= B * C) return;
    const int64_t b = idx / C;
    const int64_t c = idx % C;
    const float* p = x + b * N * C + c;
    // four independent partial sums: better ILP and smaller rounding error
    float s0 = 0.f, s1 = 0.f, s2 = 0.f, s3 = 0.f;
    int64_t i = 0;
    for (; i + 3 < N; i += 4) {
        s0 += fabsf(p[(i + 0) * C]);
        s1 += fabsf(p[(i + 1) * C]);
        s2 += fabsf(p[(i + 2) * C]);
        s3 += fabsf(p[(i + 3) * C]);
    }
    for (; i < N; ++i) s0 += fabsf(p[i * C]);
    y[idx] = ((s0 + s1) + (s2 + s3)) / (float)N;
}

torch::Tensor mean_abs_dim1_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 3, "x must be 3-D");
    const at::cuda::OptionalCUDAGuard guard(x.device());
    auto xc = x.contiguous();
    const int64_t B = xc.size(0), N = xc.size(1), C = xc.size(2);
    auto y = torch::empty({B, C}, xc.options());
    if (B * C == 0) return y;
    const int threads = 128;
    const int64_t blocks = (B * C + threads - 1) / threads;
    mean_abs_dim1_kernel<<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), B, N, C);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

_cpp_src = "torch::Tensor mean_abs_dim1_forward(torch::Tensor x);"

_ext = load_inline(
    name="r3s_mean_abs_dim1_thread_per_output",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["mean_abs_dim1_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.mean_abs_dim1_forward(x)

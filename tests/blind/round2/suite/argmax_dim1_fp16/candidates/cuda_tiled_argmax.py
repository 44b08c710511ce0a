import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_cpp_src = r"""
torch::Tensor argmax_dim_fp16(torch::Tensor x, int64_t dim);
"""

_cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <vector>

#define BX 32
#define BY 16

// (va, ia) beats (vb, ib): NaN wins, larger value wins, ties go to the smaller index.
__device__ __forceinline__ bool argmax_better(float va, int ia, float vb, int ib) {
    const bool na = (va != va);
    const bool nb = (vb != vb);
    if (na || nb) {
        if (na && nb) return ia < ib;
        return na;
    }
    if (va == vb) return ia < ib;
    return va > vb;
}

__global__ void argmax_mid_kernel(const __half* __restrict__ x, int64_t* __restrict__ out,
                                  int R, int inner, int tiles_per_outer) {
    __shared__ float sv[BY][BX];
    __shared__ int si[BY][BX];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int64_t o = blockIdx.x / tiles_per_outer;
    const int tile = blockIdx.x % tiles_per_outer;
    const int d = tile * BX + tx;

    float best = -INFINITY;
    int bidx = 0x7fffffff;
    if (d < inner) {
        const __half* base = x + o * (int64_t)R * inner + d;
        for (int r = ty; r < R; r += BY) {
            const float v = __half2float(base[(int64_t)r * inner]);
            if (argmax_better(v, r, best, bidx)) {
                best = v;
                bidx = r;
            }
        }
    }
    sv[ty][tx] = best;
    si[ty][tx] = bidx;
    __syncthreads();

    if (ty == 0 && d < inner) {
#pragma unroll
        for (int k = 1; k < BY; ++k) {
            const float v = sv[k][tx];
            const int i = si[k][tx];
            if (argmax_better(v, i, best, bidx)) {
                best = v;
                bidx = i;
            }
        }
        out[o * (int64_t)inner + d] = (int64_t)bidx;
    }
}

torch::Tensor argmax_dim_fp16(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == at::kHalf, "x must be float16");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    const c10::cuda::CUDAGuard guard(x.device());
    const int64_t nd = x.dim();
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");
    auto xc = x.contiguous();
    const int64_t R = xc.size(dim);
    TORCH_CHECK(R > 0, "argmax over an empty dimension");
    int64_t outer = 1, inner = 1;
    std::vector<int64_t> out_sizes;
    for (int64_t i = 0; i < nd; ++i) {
        if (i < dim) outer *= xc.size(i);
        if (i > dim) inner *= xc.size(i);
        if (i != dim) out_sizes.push_back(xc.size(i));
    }
    auto out = torch::empty(out_sizes, xc.options().dtype(at::kLong));
    if (outer == 0 || inner == 0) return out;
    const int64_t tiles = (inner + BX - 1) / BX;
    const int64_t blocks = outer * tiles;
    TORCH_CHECK(blocks <= 0x7fffffffLL, "input too large");
    dim3 block(BX, BY);
    argmax_mid_kernel<<<(unsigned int)blocks, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        reinterpret_cast<const __half*>(xc.data_ptr<at::Half>()), out.data_ptr<int64_t>(),
        (int)R, (int)inner, (int)tiles);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

_ext = load_inline(
    name="argmax_dim_fp16_ext_f6",
    cpp_sources=_cpp_src,
    cuda_sources=_cuda_src,
    functions=["argmax_dim_fp16"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.argmax_dim_fp16(x, self.dim)

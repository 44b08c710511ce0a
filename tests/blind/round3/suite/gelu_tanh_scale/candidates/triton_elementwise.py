import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _gelu_tanh_scale_kernel(x_ptr, y_ptr, n_elements, scale, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    # 0.5 * (1 + tanh(u)) == sigmoid(2u)
    y = (x * scale) / (1.0 + tl.exp(-2.0 * u))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.is_cuda and x.dtype == torch.float32
        xc = x.contiguous()
        y = torch.empty_like(xc)
        n = xc.numel()
        if n == 0:
            return y
        BLOCK_SIZE = 1024
        grid = (triton.cdiv(n, BLOCK_SIZE),)
        _gelu_tanh_scale_kernel[grid](xc, y, n, float(self.scale), BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
        return y

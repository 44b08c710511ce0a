import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _layernorm_fwd_kernel(X, W, B, Y, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    diff = tl.where(mask, x - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / N
    rstd = 1.0 / tl.sqrt_rn(var + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(B + cols, mask=mask, other=0.0).to(tl.float32)
    y = diff * rstd * w + b
    tl.store(Y + row * N + cols, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: int):
        super(ModelNew, self).__init__()
        self.ln = nn.LayerNorm(normalized_shape, eps=1e-5, elementwise_affine=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N = x.shape[-1]
        x2 = x.view(-1, N)
        y = torch.empty_like(x2)
        rows = x2.shape[0]
        if rows == 0:
            return y.view_as(x)
        BLOCK_N = triton.next_power_of_2(N)
        num_warps = 4 if BLOCK_N <= 1024 else (8 if BLOCK_N <= 4096 else 16)
        _layernorm_fwd_kernel[(rows,)](
            x2, self.ln.weight, self.ln.bias, y, N, self.ln.eps,
            BLOCK_N=BLOCK_N, num_warps=num_warps,
        )
        return y.view_as(x)

"""int8 GEMM simulated in float32: activation per-row scale sa = amax|x| / 127 (dim -1),
weight per-output-column scale sw = amax|w| / 127 (dim 0); both rounded and clamped to [-127, 127];
integer-valued matmul acc = xi @ wi (exact in float32 for these sizes), y = acc * sa * sw + bias.
Also the reference float matmul and its difference. Outputs: acc, y, y - x @ w."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, k, n):
        super().__init__()
        self.w = nn.Parameter(torch.randn(k, n) * 0.2)
        self.bias = nn.Parameter(torch.randn(n) * 0.1)

    def forward(self, x):
        sa = (x.abs().amax(dim=-1, keepdim=True) / 127.0).clamp_min(1e-8)
        sw = (self.w.abs().amax(dim=0, keepdim=True) / 127.0).clamp_min(1e-8)
        xi = torch.clamp(torch.round(x / sa), -127, 127)
        wi = torch.clamp(torch.round(self.w / sw), -127, 127)
        acc = xi @ wi
        y = acc * sa * sw + self.bias
        ref = x @ self.w + self.bias
        return acc, y, y - ref


def get_inputs():
    return [torch.randn(2, 13, 45)]


def get_init_inputs():
    return [45, 23]

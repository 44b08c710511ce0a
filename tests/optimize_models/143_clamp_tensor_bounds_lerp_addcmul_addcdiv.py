"""Pointwise ops with tensor arguments: torch.clamp with tensor min and max (per-channel
(C, 1, 1) parameter bounds, lo < 0 < hi), torch.lerp with a tensor weight in [0, 1),
torch.addcmul with value=0.75 and torch.addcdiv with value=-0.3 (divisor 1 + y * y, positive).
Inputs x, y: (3, 7, 9, 11) randn, w: (3, 7, 9, 11) rand; output (3, 7, 9, 11)."""

import torch
import torch.nn as nn

B, C, H, W = 3, 7, 9, 11


class Model(nn.Module):
    def __init__(self, channels, mul_value, div_value):
        super().__init__()
        self.lo = nn.Parameter(-(torch.rand(channels, 1, 1) * 0.9 + 0.2))
        self.hi = nn.Parameter(torch.rand(channels, 1, 1) * 0.9 + 0.2)
        self.mul_value = mul_value
        self.div_value = div_value

    def forward(self, x, y, w):
        c = torch.clamp(x, min=self.lo, max=self.hi)
        l = torch.lerp(c, y, w)
        m = torch.addcmul(l, x, y, value=self.mul_value)
        return torch.addcdiv(m, c, 1.0 + y * y, value=self.div_value)


def get_inputs():
    return [torch.randn(B, C, H, W), torch.randn(B, C, H, W), torch.rand(B, C, H, W)]


def get_init_inputs():
    return [C, 0.75, -0.3]

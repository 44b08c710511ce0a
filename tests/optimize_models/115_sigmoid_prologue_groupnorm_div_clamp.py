"""Pointwise prologue (per-channel scale and bias, sigmoid) feeding nn.GroupNorm with random
affine weights, followed by a divide by a learned per-channel divisor and a clamp.
Input (3, 9, 17, 19) arrives channels_last (non-contiguous in NCHW order); 3 groups of
3 channels each."""

import torch
import torch.nn as nn

N, C, H, W = 3, 9, 17, 19
GROUPS = 3


class Model(nn.Module):
    def __init__(self, groups, channels, clamp_lo, clamp_hi):
        super().__init__()
        self.scale = nn.Parameter(1.0 + 0.5 * torch.randn(channels, 1, 1))
        self.shift = nn.Parameter(0.3 * torch.randn(channels, 1, 1))
        self.gn = nn.GroupNorm(groups, channels, eps=1e-5, affine=True)
        with torch.no_grad():
            self.gn.weight.copy_(1.0 + 0.5 * torch.randn(channels))
            self.gn.bias.copy_(0.2 * torch.randn(channels))
        self.divisor = nn.Parameter(1.5 + torch.rand(channels, 1, 1))
        self.clamp_lo = clamp_lo
        self.clamp_hi = clamp_hi

    def forward(self, x):
        y = torch.sigmoid(x * self.scale + self.shift)
        y = self.gn(y)
        y = y / self.divisor
        return torch.clamp(y, self.clamp_lo, self.clamp_hi)


def get_inputs():
    return [(torch.randn(N, C, H, W) * 2.0 - 0.5).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return [GROUPS, C, -0.6, 0.8]

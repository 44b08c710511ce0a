"""InstanceNorm2d with affine weights and InstanceNorm1d without, each with pointwise ops
around them (division, tanh)."""

import torch
import torch.nn as nn

N, C, H, W = 4, 11, 21, 29
L = 143


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.in2d = nn.InstanceNorm2d(channels, affine=True)
        self.in1d = nn.InstanceNorm1d(channels)

    def forward(self, x, s):
        a = self.in2d(x) / 2.0
        b = torch.tanh(self.in1d(s * 3.0))
        return a, b


def get_inputs():
    return [torch.randn(N, C, H, W), torch.randn(N, C, L)]


def get_init_inputs():
    return [C]

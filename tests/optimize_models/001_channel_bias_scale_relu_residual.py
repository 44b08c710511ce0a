"""Pointwise chain on a conv-shaped tensor: per-channel (C,1,1) bias, Python scalar scale,
ReLU, then a residual add of the input."""

import torch
import torch.nn as nn

N, C, H, W = 3, 13, 17, 19


class Model(nn.Module):
    def __init__(self, channels, scale):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(channels, 1, 1))
        self.scale = scale

    def forward(self, x):
        y = (x + self.bias) * self.scale
        y = torch.relu(y)
        return y + x


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, 1.7]

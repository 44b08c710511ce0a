"""A channels_last input x and a contiguous NCHW input g go through pointwise ops
(x * sigmoid(g), a per-channel bias of shape (C, 1, 1), a scalar scale), then softmax over
the channel dim (dim 1), which is the innermost dim in memory for x."""

import torch
import torch.nn as nn

N, C, H, W = 2, 24, 29, 31


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(channels, 1, 1))

    def forward(self, x, g):
        h = x * torch.sigmoid(g) + self.bias
        p = torch.softmax(h * 1.25, dim=1)
        return p, p * x


def get_inputs():
    x = torch.randn(N, C, H, W).contiguous(memory_format=torch.channels_last)
    g = torch.randn(N, C, H, W)
    return [x, g]


def get_init_inputs():
    return [C]

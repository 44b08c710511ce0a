"""Depthwise Conv2d with a channel multiplier of 2 (groups == in_channels, out_channels =
2 * in_channels, k3, padding 1, padding_mode='replicate') + bias; the two outputs of each
input channel are adjacent (channel 2c and 2c + 1), so view(N, C, 2, H, W) splits them into
a value and a gate: a * sigmoid(g). Then a 1x1 Conv2d (C -> C) + bias, a per-channel (C,1,1)
scale, residual add of the input, leaky_relu(0.1).
Input (2, 9, 15, 13); output (2, 9, 15, 13)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 9, 15, 13


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.dw = nn.Conv2d(channels, 2 * channels, kernel_size=3, padding=1,
                            groups=channels, padding_mode="replicate")
        self.pw = nn.Conv2d(channels, channels, kernel_size=1)
        self.scale = nn.Parameter(torch.rand(channels, 1, 1) + 0.5)

    def forward(self, x):
        n, c, h, w = x.shape
        y = self.dw(x).view(n, c, 2, h, w)
        a = y[:, :, 0]
        g = y[:, :, 1]
        z = a * torch.sigmoid(g)
        z = self.pw(z) * self.scale
        return F.leaky_relu(z + x, negative_slope=0.1)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]

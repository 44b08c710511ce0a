"""Inputs that arrive non-contiguous (a transposed tensor and a channels-last tensor) fed
straight into pointwise ops, a row reduction and a conv."""

import torch
import torch.nn as nn

M, N = 97, 203
B, C, H, W = 2, 8, 15, 17


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, xt, img):
        y = torch.relu(xt) - 0.5 * xt
        s = y.sum(dim=-1)
        z = torch.sigmoid(self.conv(img)) * img
        return y, s, z


def get_inputs():
    return [torch.randn(N, M).t(),
            torch.randn(B, C, H, W).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return [C]

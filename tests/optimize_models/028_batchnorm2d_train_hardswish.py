"""nn.BatchNorm2d in default train mode on an (N, C, H, W) tensor, followed by hardswish
and a per-channel scale."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 6, 24, 19, 23


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        self.gamma = nn.Parameter(torch.randn(1, channels, 1, 1))

    def forward(self, x):
        return F.hardswish(self.bn(x)) * self.gamma


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]

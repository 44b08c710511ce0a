"""Depthwise nn.Conv2d (groups=C, 5x5) -> ReLU6 -> pointwise 1x1 Conv2d -> residual add:
a MobileNet-style depthwise-separable block."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 4, 24, 27, 27


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.dw = nn.Conv2d(channels, channels, 5, padding=2, groups=channels)
        self.pw = nn.Conv2d(channels, channels, 1)

    def forward(self, x):
        y = F.relu6(self.dw(x))
        return x + self.pw(y)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]

"""max_pool2d (3x3, stride 2, padding 1, ceil_mode) between a per-channel bias add and a
ReLU, plus a plain 2x2 max pool."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 4, 13, 35, 29


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(channels, 1, 1))

    def forward(self, x):
        y = F.max_pool2d(x + self.bias, kernel_size=3, stride=2, padding=1, ceil_mode=True)
        z = F.max_pool2d(x, 2)
        return torch.relu(y), z * 0.5


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]

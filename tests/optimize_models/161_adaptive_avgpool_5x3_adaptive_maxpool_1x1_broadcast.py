"""nn.AdaptiveAvgPool2d((5, 3)) from 17x13 (non-divisor output size: overlapping,
uneven windows) and nn.AdaptiveMaxPool2d((1, 1)) on the same input, combined by
broadcasting (N, C, 5, 3) with (N, C, 1, 1): a * sigmoid(m) - m.
Input (3, 7, 17, 13); output (3, 7, 5, 3)."""

import torch
import torch.nn as nn

N, C, H, W = 3, 7, 17, 13


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.avg = nn.AdaptiveAvgPool2d((5, 3))
        self.max = nn.AdaptiveMaxPool2d((1, 1))

    def forward(self, x):
        a = self.avg(x)
        m = self.max(x)
        return a * torch.sigmoid(m) - m


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []

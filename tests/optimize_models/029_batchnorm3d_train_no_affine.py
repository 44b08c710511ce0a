"""nn.BatchNorm3d in train mode without affine parameters, preceded by an exp-based
pointwise op and followed by a clamp."""

import torch
import torch.nn as nn

N, C, D, H, W = 2, 7, 5, 11, 13


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm3d(channels, affine=False)

    def forward(self, x):
        y = torch.exp(0.5 * x) - 1.0
        return torch.clamp(self.bn(y), -2.0, 2.0)


def get_inputs():
    return [torch.randn(N, C, D, H, W)]


def get_init_inputs():
    return [C]

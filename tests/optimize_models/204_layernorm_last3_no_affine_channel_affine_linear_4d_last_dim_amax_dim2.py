"""nn.LayerNorm over the last three dims (C, H, W) with elementwise_affine=False, then a learned
per-channel affine of shape (C, 1, 1) (weight and bias), then nn.Linear (W=13 -> 11) applied to
the last dim of the 4-D tensor (leading dims N, C, H flattened by the GEMM), SiLU, then a
reduction over the middle dim H: amax(dim=2) and mean(dim=2); returns amax + 0.5 * mean.
Input (2, 5, 9, 13); output (2, 5, 11)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W, OUT = 2, 5, 9, 13, 11


class Model(nn.Module):
    def __init__(self, channels, height, width, out_features):
        super().__init__()
        self.norm = nn.LayerNorm([channels, height, width], elementwise_affine=False)
        self.weight = nn.Parameter(torch.randn(channels, 1, 1) * 0.3 + 1.0)
        self.bias = nn.Parameter(torch.randn(channels, 1, 1) * 0.2)
        self.fc = nn.Linear(width, out_features)

    def forward(self, x):
        y = self.norm(x) * self.weight + self.bias
        y = F.silu(self.fc(y))
        return y.amax(dim=2) + 0.5 * y.mean(dim=2)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, H, W, OUT]

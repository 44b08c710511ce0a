"""Conv-module style block on (B, T, C) tokens: transpose to (B, C, T), depthwise Conv1d
(groups = C, kernel 7, padding 3, bias), pointwise Conv1d (C -> 2C, kernel 1, bias),
F.glu over channels (dim 1) back to C, transpose back to (B, T, C), residual add of the
input, LayerNorm(C).
Input (3, 37, 21); output (3, 37, 21)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, C, K = 3, 37, 21, 7


class Model(nn.Module):
    def __init__(self, channels, kernel_size):
        super().__init__()
        self.depthwise = nn.Conv1d(
            channels, channels, kernel_size, padding=kernel_size // 2, groups=channels
        )
        self.pointwise = nn.Conv1d(channels, 2 * channels, kernel_size=1)
        self.norm = nn.LayerNorm(channels)

    def forward(self, x):
        y = x.transpose(1, 2)
        y = self.depthwise(y)
        y = self.pointwise(y)
        y = F.glu(y, dim=1)
        y = y.transpose(1, 2)
        return self.norm(y + x)


def get_inputs():
    return [torch.randn(B, T, C)]


def get_init_inputs():
    return [C, K]

"""Pointwise chain on slices whose data pointers are not 16-byte aligned: x is (37, 517);
a = x[:, 1:-2] starts 4 bytes in, b = x[:, 3:] starts 12 bytes in, both (37, 514) with
row stride 517; a per-column bias, sigmoid, softplus and a clamp combine them."""

import torch
import torch.nn as nn
import torch.nn.functional as F

R, C = 37, 517


class Model(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.col_bias = nn.Parameter(torch.randn(cols) * 0.5)

    def forward(self, x):
        a = x[:, 1:-2]
        b = x[..., 3:]
        d = (b - a) * 0.5 + self.col_bias
        s = torch.sigmoid(d) * a
        y = F.softplus(s - 0.25 * b)
        return torch.clamp(y * 1.5 - 0.4, min=-0.3, max=3.0)


def get_inputs():
    return [torch.randn(R, C)]


def get_init_inputs():
    return [C - 3]

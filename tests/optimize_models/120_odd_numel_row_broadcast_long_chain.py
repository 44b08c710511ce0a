"""Long pointwise chain (mul, add, tanh, gelu, clamp, where, sub) on x of shape (3, 1001, 7),
21021 elements (not a multiple of 8, odd), with a per-row (1, 1001, 1) scale parameter and a
per-row (3, 1001, 1) input operand broadcast along the last dim."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, R, K = 3, 1001, 7


class Model(nn.Module):
    def __init__(self, rows):
        super().__init__()
        self.row_scale = nn.Parameter(torch.randn(1, rows, 1) * 0.5 + 1.0)

    def forward(self, x, r):
        h = x * self.row_scale + r
        t = torch.tanh(h * 0.75)
        g = F.gelu(h - 0.3 * t)
        c = torch.clamp(g * 1.3 - 0.2, min=-0.5, max=2.0)
        y = torch.where(h > r, c, t * 0.5)
        return y - 0.1 * x


def get_inputs():
    return [torch.randn(B, R, K), torch.randn(B, R, 1)]


def get_init_inputs():
    return [R]

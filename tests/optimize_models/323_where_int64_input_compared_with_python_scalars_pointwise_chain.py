"""Pointwise chain driven by an int64 input k (values -3..4, both signs) compared with Python
scalars: torch.where(k > 1, x * 2, tanh(x)), where(k == 0, -y, y + 0.25), where(k % 2 == 1, y, 0.5 * y)
(remainder of negative ints), where(k >= 0, 1.5, -0.5) with scalar branches, and k broadcast from a
(257, 1) int64 column against a (257, 37) float tensor.
Inputs x (257, 37), k (257, 37) int64, kc (257, 1) int64; outputs (257, 37) float, (257, 37) float."""

import torch
import torch.nn as nn

R, C = 257, 37


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, k, kc):
        y = torch.where(k > 1, x * 2.0, torch.tanh(x))
        y = torch.where(k == 0, -y, y + 0.25)
        y = torch.where(k % 2 == 1, y, 0.5 * y)
        sgn = torch.where(k >= 0, 1.5, -0.5)
        out = y * sgn - 0.1
        col = torch.where(kc < -1, torch.sigmoid(x), x.abs() - 1.0)
        return out, col


def get_inputs():
    return [torch.randn(R, C), torch.randint(-3, 5, (R, C)), torch.randint(-3, 5, (R, 1))]


def get_init_inputs():
    return []

"""nn.LayerNorm(D, elementwise_affine=False) on x.transpose(1, 2) of a (B, D, T) input
(non-contiguous (B, T, D) view), followed by a hand-written affine with (D,) weight and bias
parameters, then GELU(approximate='tanh').
Input x: (3, 37, 23); output (3, 23, 37)."""

import torch
import torch.nn as nn

B, D, T = 3, 37, 23


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-5)
        self.weight = nn.Parameter(torch.randn(dim) * 0.5 + 1.0)
        self.bias = nn.Parameter(torch.randn(dim) * 0.5)
        self.act = nn.GELU(approximate="tanh")

    def forward(self, x):
        h = x.transpose(1, 2)
        h = self.norm(h)
        h = h * self.weight + self.bias
        return self.act(h)


def get_inputs():
    return [torch.randn(B, D, T)]


def get_init_inputs():
    return [D]

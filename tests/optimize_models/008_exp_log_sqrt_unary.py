"""Unary math on positive inputs: exp, log, log1p, sqrt, rsqrt, abs, sign, reciprocal."""

import torch
import torch.nn as nn

B, D = 31, 777


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, pos, x):
        a = torch.log(pos + 1e-3) + torch.log1p(pos)
        b = torch.sqrt(pos) * torch.rsqrt(pos + 0.5)
        c = torch.exp(-torch.abs(x)) * torch.sign(x)
        d = torch.reciprocal(x.abs() + 1.0)
        return a + b - c * d


def get_inputs():
    return [torch.rand(B, D), torch.randn(B, D)]


def get_init_inputs():
    return []

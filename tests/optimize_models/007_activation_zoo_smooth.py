"""Smooth and piecewise-linear activations chained: mish, softplus (beta, threshold),
softsign, hardswish, hardsigmoid, logsigmoid."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D = 43, 511


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        a = F.mish(x) * F.softsign(x)
        b = F.softplus(x, beta=2.0, threshold=10.0) - F.softplus(x)
        c = F.hardswish(x) + F.hardsigmoid(x)
        d = F.logsigmoid(x)
        return a + b * c - d


def get_inputs():
    return [torch.randn(B, D) * 4.0]


def get_init_inputs():
    return []

"""GEMM chain in KernelBench level 2 style: nn.Linear (67 -> 101, bias), residual saved as
x.clone().detach() before a Python float scale (x * 1.7), x = x + residual, clamp to
[-2.5, 2.5], logsumexp over dim 1 (keepdim=True), then x * mish(x).
Input (13, 67); output (13, 1)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, IN, OUT = 13, 67, 101


class Model(nn.Module):
    def __init__(self, in_features, out_features, scale, clamp_min, clamp_max):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x):
        x = self.linear(x)
        residual = x.clone().detach()
        x = x * self.scale
        x = x + residual
        x = torch.clamp(x, self.clamp_min, self.clamp_max)
        x = torch.logsumexp(x, dim=1, keepdim=True)
        x = x * F.mish(x)
        return x


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT, 1.7, -2.5, 2.5]

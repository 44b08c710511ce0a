"""Symmetric int8 fake quantisation: per tensor (scale = amax(|x|) / 127, round, clamp [-128, 127],
dequantise) on an activation, and per output channel on a Conv2d-shaped weight parameter
(amax over dims (1, 2, 3) keepdim, scale clamp_min(1e-8)); conv2d with the fake-quant weight.
Outputs: fake-quant activation, conv output, per-channel scales."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def fq_tensor(x):
    s = (x.abs().amax() / 127.0).clamp_min(1e-8)
    return torch.clamp(torch.round(x / s), -128, 127) * s


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(cout, cin, 3, 3) * 0.3)
        self.bias = nn.Parameter(torch.randn(cout) * 0.1)

    def forward(self, x):
        xq = fq_tensor(x)
        s = (self.weight.abs().amax(dim=(1, 2, 3), keepdim=True) / 127.0).clamp_min(1e-8)
        wq = torch.clamp(torch.round(self.weight / s), -128, 127) * s
        y = F.conv2d(xq, wq, self.bias, padding=1)
        return xq, y, s.flatten()


def get_inputs():
    return [torch.randn(2, 5, 11, 13)]


def get_init_inputs():
    return [5, 7]

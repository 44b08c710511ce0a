"""Scans and reductions with a dtype argument: torch.cumsum(x, dim=0, dtype=torch.float64)
along the leading dim, cast back with .to(torch.float32); x.sum(dim=1, dtype=torch.float64)
kept in float64; torch.var_mean(x, dim=-1, keepdim=True) (correction 1) returns a tuple whose
mean is used twice (centring and added back) and whose var is used twice (rsqrt for the
standardisation and var.sum(dim=1, dtype=torch.float64) as a float64 divisor).
Input (23, 7, 11); outputs (23, 7, 11) float32 and (23, 11) float64."""

import torch
import torch.nn as nn

A, B, C = 23, 7, 11


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        c = torch.cumsum(x, dim=0, dtype=torch.float64).to(torch.float32)
        s = x.sum(dim=1, dtype=torch.float64)
        var, mean = torch.var_mean(x, dim=-1, keepdim=True)
        z = (x - mean) * torch.rsqrt(var + 1e-5)
        out1 = z + 0.1 * c + mean
        out2 = s / var.sum(dim=1, dtype=torch.float64).sqrt()
        return out1, out2


def get_inputs():
    return [torch.randn(A, B, C)]


def get_init_inputs():
    return []

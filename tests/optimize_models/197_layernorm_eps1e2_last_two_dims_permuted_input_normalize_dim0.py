"""F.layer_norm with a large eps=1e-2 over the last two dims (W, C) of a permuted,
non-contiguous view x.permute(0, 2, 3, 1) of an NCHW input with small variance (randn * 0.1,
so eps is comparable to the variance and cannot be dropped), with (W, C) weight and bias;
then F.normalize(p=2, dim=0) over the batch dim (3 entries per vector, eps=1e-12), permuted
back to NCHW (non-contiguous output), and F.normalize(p=1, dim=0, eps=1e-3) of the flattened
input (N, C*H*W) (p=1 over dim 0).
Input (3, 9, 11, 13); outputs (3, 9, 11, 13) and (3, 1287) as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 3, 9, 11, 13


class Model(nn.Module):
    def __init__(self, width, channels, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(width, channels) + 0.5)
        self.bias = nn.Parameter(torch.randn(width, channels) * 0.1)
        self.eps = eps

    def forward(self, x):
        y = x.permute(0, 2, 3, 1)
        y = F.layer_norm(y, (y.shape[-2], y.shape[-1]), self.weight, self.bias, eps=self.eps)
        y = F.normalize(y, p=2.0, dim=0)
        out = y.permute(0, 3, 1, 2)
        flat = F.normalize(x.flatten(1), p=1.0, dim=0, eps=1e-3)
        return out, flat


def get_inputs():
    return [torch.randn(N, C, H, W) * 0.1]


def get_init_inputs():
    return [W, C, 1e-2]

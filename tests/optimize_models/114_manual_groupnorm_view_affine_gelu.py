"""Hand-written GroupNorm the way model code often spells it: x.view(N, G, -1), biased
mean/var over each group, normalise with rsqrt, view back to (N, C, H, W), then a
per-channel weight and bias of shape (C, 1, 1) and a tanh-approximate gelu.
Input (2, 15, 13, 11) with 5 groups of 3 * 13 * 11 = 429 elements each."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 15, 13, 11
GROUPS = 5


class Model(nn.Module):
    def __init__(self, groups, channels, eps):
        super().__init__()
        self.groups = groups
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.4 * torch.randn(channels, 1, 1))
        self.bias = nn.Parameter(0.25 * torch.randn(channels, 1, 1))

    def forward(self, x):
        n, c, h, w = x.shape
        g = x.view(n, self.groups, -1)
        mean = g.mean(dim=-1, keepdim=True)
        var = g.var(dim=-1, unbiased=False, keepdim=True)
        g = (g - mean) * torch.rsqrt(var + self.eps)
        y = g.view(n, c, h, w) * self.weight + self.bias
        return F.gelu(y, approximate="tanh")


def get_inputs():
    return [torch.randn(N, C, H, W) * 1.7 + 0.4]


def get_init_inputs():
    return [GROUPS, C, 1e-5]

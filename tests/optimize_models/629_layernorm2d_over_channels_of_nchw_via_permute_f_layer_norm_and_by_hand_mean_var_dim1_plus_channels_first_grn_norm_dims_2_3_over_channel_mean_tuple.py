"""Channels-first LayerNorm of an NCHW tensor (B=3, C=13, 9x7) two ways: F.layer_norm on
x.permute(0, 2, 3, 1) then permute back (non-contiguous result fed on), and by hand with mean / biased
variance over dim 1 keepdim, rsqrt, per-channel weight / bias as [:, None, None]. The first result then
goes through channels-first GRN (L2 norm over dims (2, 3) keepdim, divided by its mean over channels
+ 1e-6, gamma * (x * Nx) + beta + x with (1, C, 1, 1) parameters). Outputs: both layer norms, their
max absolute difference, and the GRN output (tuple)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W = 3, 13, 9, 7
EPS = 1e-6


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(dim) + 0.5)
        self.bias = nn.Parameter(torch.randn(dim) * 0.1)
        self.gamma = nn.Parameter(torch.randn(1, dim, 1, 1) * 0.5)
        self.beta = nn.Parameter(torch.randn(1, dim, 1, 1) * 0.1)

    def forward(self, x):
        c = x.shape[1]
        ln_a = F.layer_norm(x.permute(0, 2, 3, 1), (c,), self.weight, self.bias, EPS).permute(0, 3, 1, 2)
        u = x.mean(dim=1, keepdim=True)
        s = (x - u).pow(2).mean(dim=1, keepdim=True)
        ln_b = (x - u) * torch.rsqrt(s + EPS) * self.weight[:, None, None] + self.bias[:, None, None]
        diff = (ln_a - ln_b).abs().amax()
        gx = torch.norm(ln_a, p=2, dim=(2, 3), keepdim=True)
        nx = gx / (gx.mean(dim=1, keepdim=True) + 1e-6)
        grn = self.gamma * (ln_a * nx) + self.beta + ln_a
        return ln_a, ln_b, diff, grn


def get_inputs():
    return [torch.randn(B, C, H, W) * 2.0 + 0.5]


def get_init_inputs():
    return [C]

"""Keepdim reductions over several dims (some negative) and var/std with correction=0 and default.
x (3, 17, 29): sum over (0, 2) and mean over (-1, -3) keepdim -> (1, 17, 1) broadcast back; var over
all elements with correction=0 and default (0-dim each), std over dim 1 (default) -> (3, 29), std over
dim -1 correction=0 keepdim, var over (0, -1) correction=0 keepdim. y (1, 1, 29), g (1, 17, 1) size-1 dims.
Inputs x (3, 17, 29), y (1, 1, 29); outputs (3, 17, 29), (3, 29), (1, 17, 1), (2,), (1, 1, 1)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, T, C = 3, 17, 29


class Model(nn.Module):
    def __init__(self, t):
        super().__init__()
        self.g = nn.Parameter(torch.randn(1, t, 1) * 0.5 + 1.0)

    def forward(self, x, y):
        s = x.sum(dim=(0, 2), keepdim=True)                        # (1, 17, 1)
        m = x.mean(dim=(-1, -3), keepdim=True)                     # (1, 17, 1)
        c = x - m
        v_biased = torch.var(x, correction=0)                      # 0-dim, all elements
        v_default = x.var()                                        # 0-dim, unbiased
        sd1 = x.std(dim=1)                                         # (3, 29), unbiased
        sd_last = torch.std(c, dim=-1, correction=0, keepdim=True)  # (3, 17, 1)
        z = c / (sd_last + 1e-5) * self.g + s / (x.shape[0] * x.shape[2]) * y
        v_mid = z.var(dim=(0, -1), keepdim=True, correction=0)     # (1, 17, 1)
        out = z * torch.rsqrt(v_mid + 1e-5) + (v_default - v_biased)
        ys = y.sum(dim=(0, 1), keepdim=True).mean(dim=-1, keepdim=True)  # (1, 1, 1)
        return out, sd1 * y.squeeze(1), v_mid, torch.stack([v_biased, v_default]), ys


def get_inputs():
    return [torch.randn(N, T, C) * 1.5 - 0.2, torch.randn(1, 1, C)]


def get_init_inputs():
    return [T]

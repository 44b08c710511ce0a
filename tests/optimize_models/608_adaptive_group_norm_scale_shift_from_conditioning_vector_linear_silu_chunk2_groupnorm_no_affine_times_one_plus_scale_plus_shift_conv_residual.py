"""Adaptive GroupNorm (AdaGN, ADM-style): ss = Linear(silu(cond)) (N, 2C) -> [:, :, None, None];
scale, shift = ss.chunk(2, dim=1); h = GroupNorm(x) (no affine) * (1 + scale) + shift;
out = x + conv3x3(silu(h)).
x = randn(3, 12, 9, 11), cond = randn(3, 17). Outputs: out (3, 12, 9, 11), h."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c, cdim, groups):
        super().__init__()
        self.norm = nn.GroupNorm(groups, c, affine=False)
        self.emb = nn.Linear(cdim, 2 * c)
        self.conv = nn.Conv2d(c, c, 3, padding=1)

    def forward(self, x, cond):
        ss = self.emb(F.silu(cond))[:, :, None, None]
        scale, shift = ss.chunk(2, dim=1)
        h = self.norm(x) * (1.0 + scale) + shift
        return x + self.conv(F.silu(h)), h


def get_inputs():
    return [torch.randn(3, 12, 9, 11), torch.randn(3, 17)]


def get_init_inputs():
    return [12, 17, 4]

"""Grouped nn.Conv2d (groups=3) -> GELU -> GroupNorm with the same number of groups ->
channel shuffle via view/transpose."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, C_OUT, H, W, G = 4, 15, 21, 23, 19, 3


class Model(nn.Module):
    def __init__(self, c_in, c_out, groups):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1, groups=groups)
        self.gn = nn.GroupNorm(groups, c_out)
        self.groups = groups

    def forward(self, x):
        y = self.gn(F.gelu(self.conv(x)))
        n, c, h, w = y.shape
        y = y.view(n, self.groups, c // self.groups, h, w).transpose(1, 2).contiguous()
        return y.view(n, c, h, w)


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT, G]

"""nn.GroupNorm (affine) on a 4-D tensor followed by SiLU, plus a second functional
group_norm with fewer groups and no affine."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 5, 30, 13, 17


class Model(nn.Module):
    def __init__(self, groups, channels):
        super().__init__()
        self.gn = nn.GroupNorm(groups, channels, eps=1e-5)

    def forward(self, x):
        a = F.silu(self.gn(x))
        b = F.group_norm(x * 2.0, 3)
        return a - 0.5 * b


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [6, C]

"""Diffusion UNet residual block: GroupNorm(4, 20) -> SiLU -> Conv2d 3x3 (20 -> 24), plus a
timestep embedding projection Linear(silu(temb)) added per channel via [:, :, None, None],
GroupNorm(4, 24) -> SiLU -> Conv2d 3x3 (24 -> 24), plus a 1x1 Conv2d skip (20 -> 24) of x.
Inputs x: (2, 20, 13, 11), temb: (2, 32); output (2, 24, 13, 11)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, C_OUT, H, W, T_DIM, G = 2, 20, 24, 13, 11, 32, 4


class Model(nn.Module):
    def __init__(self, c_in, c_out, t_dim, groups):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, c_in)
        self.conv1 = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.temb_proj = nn.Linear(t_dim, c_out)
        self.norm2 = nn.GroupNorm(groups, c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, padding=1)
        self.skip = nn.Conv2d(c_in, c_out, 1)

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.temb_proj(F.silu(temb))[:, :, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return self.skip(x) + h


def get_inputs():
    return [torch.randn(N, C_IN, H, W), torch.randn(N, T_DIM)]


def get_init_inputs():
    return [C_IN, C_OUT, T_DIM, G]

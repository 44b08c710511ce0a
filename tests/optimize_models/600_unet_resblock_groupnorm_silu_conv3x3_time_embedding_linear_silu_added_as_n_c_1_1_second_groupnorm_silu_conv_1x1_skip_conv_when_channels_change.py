"""UNet ResBlock (diffusion): h = conv3x3(silu(GroupNorm(x))); h += Linear(silu(temb))[:, :, None, None];
h = conv3x3(silu(GroupNorm(h))); out = skip1x1(x) + h  (channels 10 -> 14, so the skip is a 1x1 conv).
x = randn(2, 10, 11, 13), temb = randn(2, 24). Output (2, 14, 11, 13)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, cout, tdim, groups):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, cin)
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1)
        self.temb_proj = nn.Linear(tdim, cout)
        self.norm2 = nn.GroupNorm(groups, cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1)
        self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.temb_proj(F.silu(temb))[:, :, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return self.skip(x) + h


def get_inputs():
    return [torch.randn(2, 10, 11, 13), torch.randn(2, 24)]


def get_init_inputs():
    return [10, 14, 24, 2]

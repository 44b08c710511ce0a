"""nn.Conv3d -> min over the depth dim -> softmax over channels -> multiply by a
per-channel (C,1,1) parameter."""

import torch
import torch.nn as nn

N, C_IN, C_OUT, D, H, W = 2, 3, 10, 9, 17, 15


class Model(nn.Module):
    def __init__(self, c_in, c_out, k):
        super().__init__()
        self.conv = nn.Conv3d(c_in, c_out, k)
        self.w = nn.Parameter(torch.randn(c_out, 1, 1))

    def forward(self, x):
        y = self.conv(x)                       # (N, C_OUT, D', H', W')
        y = torch.min(y, dim=2)[0]             # (N, C_OUT, H', W')
        return torch.softmax(y, dim=1) * self.w


def get_inputs():
    return [torch.randn(N, C_IN, D, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT, 3]

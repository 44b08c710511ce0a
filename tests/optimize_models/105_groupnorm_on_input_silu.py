"""nn.GroupNorm applied directly to the model input (no conv before it) with random affine
weight and bias, followed by silu. Input (2, 12, 53, 57) with 2 groups: 4 groups of
6 * 53 * 57 = 18126 elements each."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 12, 53, 57
GROUPS = 2


class Model(nn.Module):
    def __init__(self, groups, channels):
        super().__init__()
        self.gn = nn.GroupNorm(groups, channels, eps=1e-5, affine=True)
        with torch.no_grad():
            self.gn.weight.copy_(1.0 + 0.5 * torch.randn(channels))
            self.gn.bias.copy_(0.3 * torch.randn(channels))

    def forward(self, x):
        return F.silu(self.gn(x))


def get_inputs():
    return [torch.randn(N, C, H, W) * 2.5 - 0.75]


def get_init_inputs():
    return [GROUPS, C]

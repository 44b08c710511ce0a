"""Depthwise-separable Conv1d block: depthwise anchor with an input residual, then a 1x1 conv
anchor and a chain ending in a length reduction.
x = randn(3, 13, 37).
h = Conv1d(13 -> 13, k5, dilation 2, padding 4, groups 13)(x) (3, 13, 37) + x -> swish
(h * sigmoid(h)); h = Conv1d(13 -> 21, k1)(h) (3, 21, 37) -> relu6 -> InstanceNorm1d(21,
affine=True, random affine) -> max_pool1d(3, stride 2) (3, 21, 18);
out = h.sum(dim=-1) (3, 21).
Outputs: out (3, 21)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c, cout):
        super().__init__()
        self.dw = nn.Conv1d(c, c, 5, dilation=2, padding=4, groups=c)
        self.pw = nn.Conv1d(c, cout, 1)
        self.inorm = nn.InstanceNorm1d(cout, affine=True)
        with torch.no_grad():
            self.inorm.weight.copy_(1.0 + 0.2 * torch.randn(cout))
            self.inorm.bias.copy_(0.1 * torch.randn(cout))

    def forward(self, x):
        h = self.dw(x) + x
        h = h * torch.sigmoid(h)
        h = self.inorm(F.relu6(self.pw(h)))
        h = F.max_pool1d(h, 3, stride=2)
        return h.sum(dim=-1)


def get_inputs():
    return [torch.randn(3, 13, 37)]


def get_init_inputs():
    return [13, 21]

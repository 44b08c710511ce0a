"""Grouped, dilated Conv2d with a rectangular kernel, then instance norm, gelu, residual of the
conv output, padded average pooling and a softmax-weighted channel sum.
x = randn(2, 9, 15, 11).
c = Conv2d(9 -> 15, k(3, 5), padding (1, 4), dilation (1, 2), groups 3)(x) (2, 15, 15, 11);
h = gelu(F.instance_norm(c)) + c; h = avg_pool2d(h, 3, stride 2, padding 1,
count_include_pad=False) (2, 15, 8, 6); p = softmax(h, dim=1) * (C, 1, 1) weight;
out = p.sum(dim=1) (2, 8, 6).
Outputs: out (2, 8, 6)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, cout, groups):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, (3, 5), padding=(1, 4), dilation=(1, 2), groups=groups)
        self.weight = nn.Parameter(torch.randn(cout, 1, 1))

    def forward(self, x):
        c = self.conv(x)
        h = F.gelu(F.instance_norm(c)) + c
        h = F.avg_pool2d(h, 3, stride=2, padding=1, count_include_pad=False)
        p = torch.softmax(h, dim=1) * self.weight
        return p.sum(dim=1)


def get_inputs():
    return [torch.randn(2, 9, 15, 11)]


def get_init_inputs():
    return [9, 15, 3]

"""Conv2d followed by an epilogue with a pooling step in the middle and a channel reduction.
x = randn(2, 7, 13, 17).
h = Conv2d(7 -> 11, k3, stride 2, padding 1)(x) (2, 11, 7, 9) + (C, 1, 1) bias -> hardswish;
h = max_pool2d(h, 3, stride 2, padding 1) (2, 11, 4, 5) * scale (Python float 1.3);
l = logsumexp(h, dim=1, keepdim=True) (2, 1, 4, 5); out = l.mean(dim=(2, 3)) (2, 1).
Outputs: out (2, 1), l (2, 1, 4, 5)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, cout, scale):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, stride=2, padding=1)
        self.bias = nn.Parameter(0.2 * torch.randn(cout, 1, 1))
        self.scale = scale

    def forward(self, x):
        h = F.hardswish(self.conv(x) + self.bias)
        h = F.max_pool2d(h, 3, stride=2, padding=1) * self.scale
        l = torch.logsumexp(h, dim=1, keepdim=True)
        return l.mean(dim=(2, 3)), l


def get_inputs():
    return [torch.randn(2, 7, 13, 17)]


def get_init_inputs():
    return [7, 11, 1.3]

"""MobileNetV3 inverted residual block: 1x1 expand Conv2d (12 -> 36) + hardswish, depthwise
3x3 Conv2d (groups=36) + hardswish, squeeze-excitation (spatial mean keepdim, 1x1 Conv2d
36 -> 9, relu, 1x1 Conv2d 9 -> 36, hardsigmoid, channel rescale), 1x1 project Conv2d
(36 -> 12), residual add of the input.
Input x: (2, 12, 13, 11); output (2, 12, 13, 11)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 12, 13, 11
EXP, SQ = 36, 9


class Model(nn.Module):
    def __init__(self, channels, expanded, squeezed):
        super().__init__()
        self.expand = nn.Conv2d(channels, expanded, 1)
        self.dw = nn.Conv2d(expanded, expanded, 3, padding=1, groups=expanded)
        self.se_reduce = nn.Conv2d(expanded, squeezed, 1)
        self.se_expand = nn.Conv2d(squeezed, expanded, 1)
        self.project = nn.Conv2d(expanded, channels, 1)

    def forward(self, x):
        h = F.hardswish(self.expand(x))
        h = F.hardswish(self.dw(h))
        s = h.mean(dim=(2, 3), keepdim=True)
        s = F.relu(self.se_reduce(s))
        s = F.hardsigmoid(self.se_expand(s))
        h = h * s
        return x + self.project(h)


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, EXP, SQ]

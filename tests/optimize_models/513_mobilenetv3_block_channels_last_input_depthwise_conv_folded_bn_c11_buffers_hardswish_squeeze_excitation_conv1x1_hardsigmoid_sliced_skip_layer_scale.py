"""MobileNetV3-style block with squeeze-excitation on non-contiguous inputs.
x = randn(2, 24, 13, 11) in channels_last memory format; skip = randn(2, 24, 15, 11)[:, :, 1:-1]
(2, 24, 13, 11) (row-sliced view: offset 11, not contiguous).
y = depthwise Conv2d(24, 24, k3, padding 1, groups=24, bias=False)(x);
eval BatchNorm by hand with (C, 1, 1) buffers running_mean / running_var and (C, 1, 1)
weight / bias parameters: (y - rm) * rsqrt(rv + 1e-3) * w + b; hardswish;
SE as torchvision writes it: s = y.mean((2, 3), keepdim=True) -> Conv2d 1x1 24 -> 8 (bias) ->
ReLU -> Conv2d 1x1 8 -> 24 (bias) -> hardsigmoid; y = y * s;
projection Conv2d 1x1 24 -> 24 (no bias); out = proj + gamma * skip with a (C, 1, 1) layer
scale gamma.
Outputs: out (2, 24, 13, 11), s.flatten(1) (2, 24)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, channels, squeeze):
        super().__init__()
        c = channels
        self.dw = nn.Conv2d(c, c, 3, padding=1, groups=c, bias=False)
        self.register_buffer("rm", 0.1 * torch.randn(c, 1, 1))
        self.register_buffer("rv", 0.5 + torch.rand(c, 1, 1))
        self.bn_w = nn.Parameter(1.0 + 0.2 * torch.randn(c, 1, 1))
        self.bn_b = nn.Parameter(0.1 * torch.randn(c, 1, 1))
        self.fc1 = nn.Conv2d(c, squeeze, 1)
        self.fc2 = nn.Conv2d(squeeze, c, 1)
        self.proj = nn.Conv2d(c, c, 1, bias=False)
        self.gamma = nn.Parameter(0.5 + 0.1 * torch.randn(c, 1, 1))

    def forward(self, x, skip):
        y = self.dw(x)
        y = (y - self.rm) * torch.rsqrt(self.rv + 1e-3) * self.bn_w + self.bn_b
        y = F.hardswish(y)
        s = y.mean(dim=(2, 3), keepdim=True)
        s = F.hardsigmoid(self.fc2(F.relu(self.fc1(s))))
        y = y * s
        out = self.proj(y) + self.gamma * skip
        return out, s.flatten(1)


def get_inputs():
    x = torch.randn(2, 24, 13, 11).to(memory_format=torch.channels_last)
    skip = torch.randn(2, 24, 15, 11)[:, :, 1:-1]
    return [x, skip]


def get_init_inputs():
    return [24, 8]

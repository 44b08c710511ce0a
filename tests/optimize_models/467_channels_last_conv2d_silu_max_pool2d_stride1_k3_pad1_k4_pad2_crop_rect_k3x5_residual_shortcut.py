"""Stride-1 max pooling inside a conv block on a channels_last input:
x = randn(2, 5, 23, 31) in torch.channels_last memory format (from get_inputs).
h = silu(Conv2d 5 -> 7 (k3, padding 1)(x)) (2, 7, 23, 31);
a = F.max_pool2d(h, 3, stride=1, padding=1) (same size, -inf padding at the borders);
b = F.max_pool2d(h, 4, stride=1, padding=2) (2, 7, 24, 32), cropped asymmetrically to
b[:, :, :-1, 1:] (2, 7, 23, 31) (non-contiguous slice);
r = F.max_pool2d(h, (3, 5), stride=1, padding=(1, 2)) (rectangular window, same size);
y = relu(a + 0.5 * b - r * s (7,1,1) parameter) + Conv2d 5 -> 7 (1x1, no bias)(x) shortcut;
xm = F.max_pool2d(x, 3, stride=1, padding=1) pooled directly from the channels_last input,
times a (5,1,1) parameter.
Outputs: y (2, 7, 23, 31), xm (2, 5, 23, 31)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CI, CO, H, W = 2, 5, 7, 23, 31


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3, padding=1)
        self.short = nn.Conv2d(CI, CO, kernel_size=1, bias=False)
        self.s = nn.Parameter(0.5 + 0.3 * torch.randn(CO, 1, 1))
        self.g = nn.Parameter(torch.randn(CI, 1, 1))

    def forward(self, x):
        h = F.silu(self.conv(x))
        a = F.max_pool2d(h, 3, stride=1, padding=1)
        b = F.max_pool2d(h, 4, stride=1, padding=2)[:, :, :-1, 1:]
        r = F.max_pool2d(h, (3, 5), stride=1, padding=(1, 2))
        y = F.relu(a + 0.5 * b - r * self.s) + self.short(x)
        xm = F.max_pool2d(x, 3, stride=1, padding=1) * self.g
        return y, xm


def get_inputs():
    return [torch.randn(N, CI, H, W).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return []

"""Depthwise Conv2d (groups = channels = 13, kernel 3, padding 1) with bias on a
channels_last input, then a residual add of the input and relu6.
Input x: (2, 13, 17, 11) in torch.channels_last memory format; output (2, 13, 17, 11)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 13, 17, 11


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.dw = nn.Conv2d(channels, channels, kernel_size=3, padding=1,
                            groups=channels, bias=True)

    def forward(self, x):
        y = self.dw(x)
        return F.relu6(y + x)


def get_inputs():
    x = torch.randn(N, C, H, W).to(memory_format=torch.channels_last)
    return [x]


def get_init_inputs():
    return [C]

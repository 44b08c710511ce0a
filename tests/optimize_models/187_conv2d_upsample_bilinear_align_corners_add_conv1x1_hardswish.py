"""FPN-style merge: Conv2d 3x3 (padding 1, bias) 5 -> 7 on a 9x11 map,
nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True) to 18x22 (source
coordinates i * 8 / 17 and j * 10 / 21: not on a half-pixel grid), add a second input,
Conv2d 1x1 (bias) 7 -> 9, hardswish.
Inputs: x (2, 5, 9, 11), lateral (2, 7, 18, 22); output (2, 9, 18, 22)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, C_MID, C_OUT, H, W = 2, 5, 7, 9, 9, 11


class Model(nn.Module):
    def __init__(self, c_in, c_mid, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_mid, kernel_size=3, padding=1)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
        self.proj = nn.Conv2d(c_mid, c_out, kernel_size=1)

    def forward(self, x, lateral):
        y = self.up(self.conv(x))
        y = y + lateral
        return F.hardswish(self.proj(y))


def get_inputs():
    return [torch.randn(N, C_IN, H, W), torch.randn(N, C_MID, 2 * H, 2 * W)]


def get_init_inputs():
    return [C_IN, C_MID, C_OUT]

"""Upsampling a feature map two ways: F.interpolate nearest with scale_factor=2 (9x7 -> 18x14)
and F.interpolate bilinear (align_corners=False) to the odd size (17, 13), which is then
zero-padded on the bottom/right to 18x14; the two are combined pointwise (nearest * sigmoid(
bilinear) + bilinear), then a per-channel (C,1,1) bias is added.
Input x: (2, 5, 9, 7); output (2, 5, 18, 14)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 5, 9, 7
OUT_H, OUT_W = 17, 13


class Model(nn.Module):
    def __init__(self, channels, out_h, out_w):
        super().__init__()
        self.out_size = (out_h, out_w)
        self.bias = nn.Parameter(torch.randn(channels, 1, 1))

    def forward(self, x):
        near = F.interpolate(x, scale_factor=2, mode="nearest")
        bil = F.interpolate(x, size=self.out_size, mode="bilinear", align_corners=False)
        pad_h = near.shape[2] - bil.shape[2]
        pad_w = near.shape[3] - bil.shape[3]
        bil = F.pad(bil, (0, pad_w, 0, pad_h))
        y = near * torch.sigmoid(bil) + bil
        return y + self.bias


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, OUT_H, OUT_W]

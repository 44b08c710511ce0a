"""Sub-pixel upsampling: Conv2d 3x3 (3 -> 20, padding 1) + bias -> nn.PixelShuffle(2) ->
(2, 5, 18, 22) -> nn.GELU() -> F.interpolate(size=(17, 23), mode='bicubic',
align_corners=False) (down in H, up in W; bicubic overshoot kept, not clamped), plus a skip
from the input: F.interpolate(x, size=(17, 23), mode='nearest-exact') averaged over channels
(keepdim) and broadcast over the 5 output channels, times a (C,1,1) parameter.
Input (2, 3, 9, 11); output (2, 5, 17, 23)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, H, W, C_OUT, R = 2, 3, 9, 11, 5, 2
OUT_H, OUT_W = 17, 23


class Model(nn.Module):
    def __init__(self, c_in, c_out, r):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out * r * r, 3, padding=1)
        self.shuffle = nn.PixelShuffle(r)
        self.act = nn.GELU()
        self.skip_w = nn.Parameter(torch.randn(c_out, 1, 1) * 0.5)

    def forward(self, x):
        y = self.act(self.shuffle(self.conv(x)))
        y = F.interpolate(y, size=(OUT_H, OUT_W), mode="bicubic", align_corners=False)
        skip = F.interpolate(x, size=(OUT_H, OUT_W), mode="nearest-exact")
        return y + skip.mean(dim=1, keepdim=True) * self.skip_w


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT, R]

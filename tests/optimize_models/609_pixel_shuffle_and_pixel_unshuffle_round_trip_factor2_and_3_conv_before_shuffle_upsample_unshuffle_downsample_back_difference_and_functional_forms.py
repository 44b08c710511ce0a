"""PixelShuffle / PixelUnshuffle: x (2, 3, 7, 5) -> conv3x3 (3 -> 3*4) ->
nn.PixelShuffle(2) (2, 3, 14, 10) -> silu -> nn.PixelUnshuffle(2) (2, 12, 7, 5) -> 1x1 conv to 3;
round trip: F.pixel_unshuffle(F.pixel_shuffle(y, 3), 3) equals y (y = randn(2, 18, 5, 3));
out3 = F.pixel_shuffle(y, 3) (2, 2, 15, 9). Outputs: down (2, 3, 7, 5), up, rt - y, out3."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c, r):
        super().__init__()
        self.pre = nn.Conv2d(c, c * r * r, 3, padding=1)
        self.shuffle = nn.PixelShuffle(r)
        self.unshuffle = nn.PixelUnshuffle(r)
        self.post = nn.Conv2d(c * r * r, c, 1)

    def forward(self, x, y):
        up = F.silu(self.shuffle(self.pre(x)))
        down = self.post(self.unshuffle(up))
        out3 = F.pixel_shuffle(y, 3)
        rt = F.pixel_unshuffle(out3, 3)
        return down, up, rt - y, out3


def get_inputs():
    return [torch.randn(2, 3, 7, 5), torch.randn(2, 18, 5, 3)]


def get_init_inputs():
    return [3, 2]

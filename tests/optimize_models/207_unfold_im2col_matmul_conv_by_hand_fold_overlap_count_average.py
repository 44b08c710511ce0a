"""Convolution by hand via im2col: F.unfold(x, kernel_size=3, padding=1, stride=2) gives
(N, C*9, 7*6) columns (row order c, kh, kw), a (O, C, 3, 3) weight parameter viewed (O, C*9)
is matmul'ed on the left (broadcast over N), + (O, 1) bias, viewed back to (N, O, 7, 6), relu.
Second path: F.unfold(x, kernel_size=3, stride=2) without padding (6 x 5 overlapping patches
that cover every pixel), each patch row scaled by sigmoid of a (C*9, 1) parameter, F.fold back
to (13, 11) (overlapping contributions summed) and divided by the fold of unfold(ones) (the
per-pixel overlap count, 1, 2 or 4).
Input (2, 5, 13, 11); outputs (2, 7, 7, 6) and (2, 5, 13, 11)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W, O = 2, 5, 13, 11, 7


class Model(nn.Module):
    def __init__(self, channels, out_channels):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_channels, channels, 3, 3) * 0.2)
        self.bias = nn.Parameter(torch.randn(out_channels, 1) * 0.1)
        self.patch_gate = nn.Parameter(torch.randn(channels * 9, 1))

    def forward(self, x):
        n, c, h, w = x.shape
        cols = F.unfold(x, kernel_size=3, padding=1, stride=2)
        ho = (h + 2 - 3) // 2 + 1
        wo = (w + 2 - 3) // 2 + 1
        conv = self.weight.view(self.weight.shape[0], -1) @ cols + self.bias
        conv = torch.relu(conv.view(n, -1, ho, wo))

        patches = F.unfold(x, kernel_size=3, stride=2) * torch.sigmoid(self.patch_gate)
        folded = F.fold(patches, output_size=(h, w), kernel_size=3, stride=2)
        count = F.fold(F.unfold(torch.ones_like(x), kernel_size=3, stride=2),
                       output_size=(h, w), kernel_size=3, stride=2)
        return conv, folded / count


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, O]

"""Keepdim reductions over non-adjacent dims of a 4-D tensor broadcast straight back (no
unsqueeze): h = x * (C,1,1) scale + (C,1,1) shift, h.sum(dim=(0, 2), keepdim=True) / (N*H)
-> (1, C, 1, W) and h.amax(dim=(-3, -1), keepdim=True) -> (N, 1, H, 1) (negative dims);
g = tanh(h - m) * sigmoid(a) + 0.1 * h. The shared intermediate g then feeds two independent
outputs of different shapes: a "row" reduction g.sum(dim=(1, 3)) -> (N, H) and a "column"
reduction g.std(dim=(-4, -2)) -> (C, W) (unbiased).
Input x: (5, 7, 11, 13); outputs (5, 11) and (7, 13) as a tuple."""

import torch
import torch.nn as nn

N, C, H, W = 5, 7, 11, 13


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(channels, 1, 1) + 0.5)
        self.shift = nn.Parameter(torch.randn(channels, 1, 1) * 0.3)

    def forward(self, x):
        h = x * self.scale + self.shift
        m = h.sum(dim=(0, 2), keepdim=True) / (x.shape[0] * x.shape[2])   # (1, C, 1, W)
        a = h.amax(dim=(-3, -1), keepdim=True)                            # (N, 1, H, 1)
        g = torch.tanh(h - m) * torch.sigmoid(a) + 0.1 * h
        rows = g.sum(dim=(1, 3))                                          # (N, H)
        cols = g.std(dim=(-4, -2))                                        # (C, W)
        return rows, cols


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]

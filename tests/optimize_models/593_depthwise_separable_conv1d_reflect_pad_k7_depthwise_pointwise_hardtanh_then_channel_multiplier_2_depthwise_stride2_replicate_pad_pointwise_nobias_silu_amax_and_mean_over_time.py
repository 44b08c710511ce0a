"""Two depthwise-separable 1-D conv blocks on a length-101 signal.
x = randn(2, 4, 101).
Block 1: F.pad(x, (3, 3), mode='reflect') -> depthwise Conv1d(4, 4, k7, groups=4) ->
pointwise Conv1d(4 -> 12, k1) -> hardtanh(-1.5, 1.5) (2, 12, 101).
Block 2: F.pad(h, (2, 2), mode='replicate') -> depthwise Conv1d(12 -> 24, k5, stride 2,
groups=12) (channel multiplier 2) (2, 24, 51) -> pointwise Conv1d(24 -> 5, k1, bias=False) -> silu.
Outputs: amax over time (2, 5), mean over time (2, 5) and the block-2 map (2, 5, 51)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, L = 2, 4, 101


class Model(nn.Module):
    def __init__(self, c, mid, out):
        super().__init__()
        self.dw1 = nn.Conv1d(c, c, 7, groups=c)
        self.pw1 = nn.Conv1d(c, mid, 1)
        self.dw2 = nn.Conv1d(mid, 2 * mid, 5, stride=2, groups=mid)
        self.pw2 = nn.Conv1d(2 * mid, out, 1, bias=False)

    def forward(self, x):
        h = self.dw1(F.pad(x, (3, 3), mode="reflect"))
        h = F.hardtanh(self.pw1(h), -1.5, 1.5)
        h = self.dw2(F.pad(h, (2, 2), mode="replicate"))
        h = F.silu(self.pw2(h))
        return h.amax(dim=-1), h.mean(dim=-1), h


def get_inputs():
    return [torch.randn(B, C, L)]


def get_init_inputs():
    return [C, 12, 5]

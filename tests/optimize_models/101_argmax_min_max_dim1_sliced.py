"""argmax/argmin (int64) and max/min values over dim 1 (the middle dim) of a 3-D tensor
that arrives non-contiguous (a slice of the last dim made in get_inputs), after a
pointwise prologue; max(dim=1) and min(dim=1) return values and indices, and the
argmax index is also used to gather from a second tensor."""

import torch
import torch.nn as nn

B, L, D = 5, 211, 37


class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(d))

    def forward(self, x, v):
        y = x * self.scale + 0.1 * x * x
        amax = torch.argmax(y, dim=1)
        amin = torch.argmin(y, dim=1)
        mx = torch.max(y, dim=1)
        mn = torch.min(y, dim=1)
        picked = torch.gather(v, 1, amax.unsqueeze(1)).squeeze(1)
        return amax, amin, mx.values, mx.indices, mn.values - 1.0, mn.indices, picked


def get_inputs():
    return [torch.randn(B, L, D + 3)[:, :, 2:2 + D], torch.randn(B, L, D)]


def get_init_inputs():
    return [D]

"""Boolean-mask indexing with a data-dependent output size (x[x > t]), nonzero, and a
masked_select sum; the output length depends on the input values."""

import torch
import torch.nn as nn

B, D = 57, 311


class Model(nn.Module):
    def __init__(self, threshold):
        super().__init__()
        self.threshold = threshold

    def forward(self, x, y):
        sel = x[x > self.threshold]                     # 1-D, data-dependent length
        picked = torch.exp(-sel) * sel
        nz = torch.nonzero(y > 1.0)                     # (K, 2) int64
        total = torch.masked_select(y, y < -1.0).sum()
        return picked, nz, total


def get_inputs():
    return [torch.randn(B, D), torch.randn(B, D)]


def get_init_inputs():
    return [0.5]

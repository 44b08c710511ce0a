"""Awkward shapes: a prime-length 1-D tensor, size-1 dims broadcasting both ways
((N,1,L) with (1,C,1)), squeeze of a size-1 dim, and a reduction over a size-1 dim."""

import torch
import torch.nn as nn

L1 = 9973
N, C, L = 11, 7, 59


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, v, a, b):
        s = torch.sigmoid(v) * v.sum()
        outer = torch.tanh(a * b)                      # (N, C, L)
        one = a.mean(dim=1)                            # reduction over a size-1 dim
        return s, outer + one.unsqueeze(1), b.squeeze(0).squeeze(-1) * 2.0


def get_inputs():
    return [torch.randn(L1), torch.randn(N, 1, L), torch.randn(1, C, 1)]


def get_init_inputs():
    return []

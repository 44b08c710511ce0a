"""Negative dims everywhere on a 4-D input: softmax(dim=-2), sum(dim=-1) of the softmax,
mean(dim=(-3, -1), keepdim=True), transpose(-1, -2), and unsqueeze(-2) to broadcast the sum
back against the transposed tensor. Input x: (3, 5, 7, 11); output (3, 5, 11, 7), which
eager PyTorch returns non-contiguous (strides (385, 77, 1, 11), following the transposed view)."""

import torch
import torch.nn as nn

B, H, S, D = 3, 5, 7, 11


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim, 1) * 0.5 + 1.0)   # broadcasts on (.., D, S)

    def forward(self, x):
        p = torch.softmax(x, dim=-2)                     # (B, H, S, D)
        s = p.sum(dim=-1)                                # (B, H, S)
        m = x.mean(dim=(-3, -1), keepdim=True)           # (B, 1, S, 1)
        y = (x - m) * p
        z = y.transpose(-1, -2)                          # (B, H, D, S)
        return z * self.weight + s.unsqueeze(-2)         # (B, H, 1, S) broadcast


def get_inputs():
    return [torch.randn(B, H, S, D)]


def get_init_inputs():
    return [D]

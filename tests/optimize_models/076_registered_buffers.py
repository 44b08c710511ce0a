"""Persistent and non-persistent registered buffers (a per-feature mean/inv-std pair and a
constant frequency table) used as broadcast operands."""

import torch
import torch.nn as nn

B, T, D = 4, 61, 90


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.register_buffer("mean", torch.randn(dim) * 0.2)
        self.register_buffer("inv_std", torch.rand(dim) + 0.5)
        freq = torch.exp(-torch.arange(dim, dtype=torch.float32) / dim * 4.0)
        self.register_buffer("freq", freq, persistent=False)

    def forward(self, x):
        z = (x - self.mean) * self.inv_std
        return z + torch.sin(z * self.freq) * 0.3


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D]

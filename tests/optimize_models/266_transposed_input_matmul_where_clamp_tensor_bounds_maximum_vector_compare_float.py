"""Matmul of a transposed input: x (64, 37) -> x.t() @ W with W (64, 37), square result z (37, 37).
Elementwise chain: where(z > v[None, :], z, -z), clamp with tensor bounds lo (37, 1) column / hi (1, 37) row,
torch.maximum with vector m[:, None], (z.t() < 0).float() mask, pow(2) on the transposed read.
Outputs three (37, 37) tensors."""

import torch
import torch.nn as nn
import torch.nn.functional as F

K, N = 64, 37


class Model(nn.Module):
    def __init__(self, k, n):
        super().__init__()
        self.W = nn.Parameter(torch.randn(k, n) * 0.15)
        self.v = nn.Parameter(torch.randn(n) * 0.5)
        self.m = nn.Parameter(torch.randn(n) * 0.5)
        self.register_buffer("lo", -torch.rand(n, 1) - 0.2)
        self.register_buffer("hi", torch.rand(1, n) + 0.2)

    def forward(self, x):
        z = x.t() @ self.W
        w1 = torch.where(z > self.v[None, :], z, -z)
        c = torch.clamp(w1, min=self.lo, max=self.hi)
        mx = torch.maximum(z, self.m[:, None])
        neg = (z.t() < 0).float()
        o3 = neg * z.t().pow(2) + (z >= self.m).float()
        return c, mx, o3


def get_inputs():
    return [torch.randn(K, N)]


def get_init_inputs():
    return [K, N]

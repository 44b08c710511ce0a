"""Hand-written causal attention: scores = q @ k.transpose(-2, -1) * scale on (B, H, T, T),
masked_fill of the strict upper triangle (torch.triu(ones, diagonal=1) as a bool buffer) with
-inf, softmax over the last dim, then @ v. T = 19 (odd), head dim 13.
Inputs q, k, v: (2, 3, 19, 13); output (2, 3, 19, 13)."""

import math

import torch
import torch.nn as nn

B, H, T, D = 2, 3, 19, 13


class Model(nn.Module):
    def __init__(self, seq_len, head_dim):
        super().__init__()
        self.scale = 1.0 / math.sqrt(head_dim)
        mask = torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool), diagonal=1)
        self.register_buffer("mask", mask)

    def forward(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
        scores = scores.masked_fill(self.mask, float("-inf"))
        p = torch.softmax(scores, dim=-1)
        return torch.matmul(p, v)


def get_inputs():
    return [torch.randn(B, H, T, D), torch.randn(B, H, T, D), torch.randn(B, H, T, D)]


def get_init_inputs():
    return [T, D]

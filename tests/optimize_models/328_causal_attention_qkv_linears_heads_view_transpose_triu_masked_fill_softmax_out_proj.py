"""Tiny causal multi-head self-attention: separate q/k/v nn.Linear (45 -> 45, with bias) on
(2, 17, 45), heads split with .view(B, T, 3, 15) then .transpose(1, 2) (q, v) and .permute(0, 2, 1, 3)
(k); q @ k.transpose(-2, -1) * (1 / sqrt(15)) (Python float); causal mask built in forward with
torch.triu(torch.ones(T, T, dtype=bool), diagonal=1), masked_fill(-inf), softmax(dim=-1), @ v,
heads merged with .transpose(1, 2).reshape(B, T, 45), output nn.Linear. Output (2, 17, 45)."""

import math

import torch
import torch.nn as nn

B, T, C, H = 2, 17, 45, 3


class Model(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        q = self.q(x).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.k(x).view(b, t, self.heads, self.head_dim).permute(0, 2, 1, 3)
        v = self.v(x).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        att = q @ k.transpose(-2, -1) * self.scale
        mask = torch.triu(torch.ones(t, t, dtype=torch.bool, device=x.device), diagonal=1)
        att = att.masked_fill(mask, float("-inf"))
        att = torch.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).reshape(b, t, c)
        return self.o(y)


def get_inputs():
    return [torch.randn(B, T, C)]


def get_init_inputs():
    return [C, H]

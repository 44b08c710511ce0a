"""Grouped-query attention written by hand (Llama style): q_proj (48 -> 48, 8 heads of 6),
k_proj / v_proj (48 -> 12, 2 key/value heads of 6), all without bias; k and v expanded to
8 heads with repeat_interleave(4, dim=1) (query heads 0-3 share kv head 0, 4-7 share kv
head 1); scores = q @ k.transpose(-2, -1) * (1 / sqrt(6)); softmax(dim=-1) in float32;
@ v; heads merged; o_proj (48 -> 48, no bias). No mask.
Input (2, 15, 48); output (2, 15, 48)."""

import math

import torch
import torch.nn as nn

B, T, D, HQ, HKV = 2, 15, 48, 8, 2


class Model(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = dim // n_heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.q_proj = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(n_heads * self.head_dim, dim, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.n_kv_heads, self.head_dim).transpose(1, 2)
        n_rep = self.n_heads // self.n_kv_heads
        k = k.repeat_interleave(n_rep, dim=1)
        v = v.repeat_interleave(n_rep, dim=1)
        scores = q @ k.transpose(-2, -1) * self.scale
        probs = torch.softmax(scores.float(), dim=-1).type_as(q)
        out = probs @ v
        out = out.transpose(1, 2).reshape(b, t, -1)
        return self.o_proj(out)


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, HQ, HKV]

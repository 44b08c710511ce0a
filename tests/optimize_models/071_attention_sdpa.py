"""Multi-head self-attention with F.scaled_dot_product_attention (causal): fused QKV
Linear, head split, SDPA, head merge, output Linear."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, H = 2, 49, 96, 4


class Model(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.heads = heads

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(b, t, self.heads, -1).transpose(1, 2)
        k = k.view(b, t, self.heads, -1).transpose(1, 2)
        v = v.view(b, t, self.heads, -1).transpose(1, 2)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        o = o.transpose(1, 2).reshape(b, t, d)
        return self.proj(o)


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, H]

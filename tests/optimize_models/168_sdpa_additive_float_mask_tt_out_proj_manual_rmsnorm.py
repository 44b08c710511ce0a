"""F.scaled_dot_product_attention with an additive float attn_mask of shape (T, T) (a
second input, randn * 2, both signs) broadcast over batch and heads; fused QKV
nn.Linear (36 -> 108), 3 heads of 12, output nn.Linear (36 -> 36), residual, then an
RMSNorm written by hand: h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6) * weight.
Inputs: x (2, 21, 36), mask (21, 21); output (2, 21, 36)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, H = 2, 21, 36, 3


class Model(nn.Module):
    def __init__(self, dim, heads, eps=1e-6):
        super().__init__()
        self.heads = heads
        self.eps = eps
        self.qkv = nn.Linear(dim, 3 * dim)
        self.o_proj = nn.Linear(dim, dim)
        self.norm_weight = nn.Parameter(1.0 + 0.2 * torch.randn(dim))

    def forward(self, x, mask):
        b, t, d = x.shape
        qkv = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        y = y.transpose(1, 2).reshape(b, t, d)
        h = x + self.o_proj(y)
        variance = h.pow(2).mean(-1, keepdim=True)
        h = h * torch.rsqrt(variance + self.eps)
        return h * self.norm_weight


def get_inputs():
    return [torch.randn(B, T, D), torch.randn(T, T) * 2.0]


def get_init_inputs():
    return [D, H]

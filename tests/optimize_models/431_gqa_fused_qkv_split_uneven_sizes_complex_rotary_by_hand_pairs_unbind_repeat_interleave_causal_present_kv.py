"""Grouped-query self-attention by hand with a fused qkv projection split into unequal parts.
Input x = randn(2, 13, 80)[..., ::2] (2, 13, 40), a last-dim step-sliced view. qkv = Linear
40 -> 80; q, k, v = torch.split(qkv, [48, 16, 16], dim=-1) -> 6 query heads and 2 key/value
heads of dim 8. Rotary in the complex (Llama / Meta) form written by hand: angles = arange(13)
outer inv_freq buffer (4,), cos / sin (13, 4); for q and k, tr, ti = t.view(..., 4, 2).unbind(-1)
(interleaved real / imag pairs), complex product (tr cos - ti sin, tr sin + ti cos) stacked on
the last dim and flattened back to 8. k, v repeated per group with repeat_interleave(3, dim=1);
scores q k^T / sqrt(8), causal triu mask masked_fill -inf, softmax, @ v, heads merged, o_proj
Linear 48 -> 40. Outputs: attention output (2, 13, 40), rotated keys (2, 2, 13, 8) and values
(2, 2, 13, 8) (the present kv cache)."""

import math

import torch
import torch.nn as nn

B, T, D, HQ, HKV, HD = 2, 13, 40, 6, 2, 8


class Model(nn.Module):
    def __init__(self, dim, n_q_heads, n_kv_heads, head_dim):
        super().__init__()
        self.hq, self.hkv, self.hd = n_q_heads, n_kv_heads, head_dim
        self.qkv = nn.Linear(dim, (n_q_heads + 2 * n_kv_heads) * head_dim)
        self.o_proj = nn.Linear(n_q_heads * head_dim, dim)
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, head_dim, 2).float() / head_dim))
        self.register_buffer("inv_freq", inv_freq)

    def rotate(self, t, cos, sin):
        tr, ti = t.reshape(*t.shape[:-1], self.hd // 2, 2).unbind(-1)
        return torch.stack([tr * cos - ti * sin, tr * sin + ti * cos], dim=-1).flatten(-2)

    def forward(self, x):
        b, t, _ = x.shape
        qkv = self.qkv(x)
        q, k, v = torch.split(qkv, [self.hq * self.hd, self.hkv * self.hd, self.hkv * self.hd], dim=-1)
        q = q.view(b, t, self.hq, self.hd).transpose(1, 2)
        k = k.view(b, t, self.hkv, self.hd).transpose(1, 2)
        v = v.view(b, t, self.hkv, self.hd).transpose(1, 2)

        pos = torch.arange(t, device=x.device, dtype=x.dtype)
        angles = torch.outer(pos, self.inv_freq)
        cos, sin = angles.cos(), angles.sin()
        q = self.rotate(q, cos, sin)
        k = self.rotate(k, cos, sin)

        rep = self.hq // self.hkv
        kr = k.repeat_interleave(rep, dim=1)
        vr = v.repeat_interleave(rep, dim=1)
        scores = q @ kr.transpose(-1, -2) / math.sqrt(self.hd)
        causal = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1)
        attn = torch.softmax(scores.masked_fill(causal, float("-inf")), dim=-1)
        o = (attn @ vr).transpose(1, 2).reshape(b, t, self.hq * self.hd)
        return self.o_proj(o), k, v


def get_inputs():
    return [torch.randn(B, T, 2 * D)[..., ::2]]


def get_init_inputs():
    return [D, HQ, HKV, HD]

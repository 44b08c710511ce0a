"""KV-cache decode step with index_copy_ on a clone (HF StaticCache style): k / v cache buffers
(2, 3, 23, 8) hold earlier (random) content; q, k, v from Linear 24 -> 72 on x (2, 5, 24) split
into 3 heads of 8; int64 cache_position (5,) = arange(9, 14) from get_inputs;
kc = self.k_cache.clone(); kc.index_copy_(2, cache_position, k) (same for v). Causal mask over
the whole cache built in forward: torch.arange(23)[None, :] <= cache_position[:, None] (5, 23),
scores q @ kc^T / sqrt(8) masked_fill(~mask, -inf), softmax, @ vc, out Linear 24 -> 24.
The forward writes into clones only: the buffers are unchanged, repeated calls agree. Outputs
(2, 5, 24) and the updated caches kc, vc (2, 3, 23, 8)."""

import math

import torch
import torch.nn as nn

B, T, D, H, DH, SMAX, PAST = 2, 5, 24, 3, 8, 23, 9


class Model(nn.Module):
    def __init__(self, dim, heads, max_len):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.o = nn.Linear(dim, dim)
        self.register_buffer("k_cache", torch.randn(B, heads, max_len, self.head_dim))
        self.register_buffer("v_cache", torch.randn(B, heads, max_len, self.head_dim))

    def forward(self, x, cache_position):
        b, t, d = x.shape
        h, dh = self.heads, self.head_dim
        q, k, v = self.qkv(x).split(d, dim=-1)
        q = q.view(b, t, h, dh).transpose(1, 2)
        k = k.view(b, t, h, dh).transpose(1, 2)
        v = v.view(b, t, h, dh).transpose(1, 2)
        kc = self.k_cache.clone()
        kc.index_copy_(2, cache_position, k)
        vc = self.v_cache.clone()
        vc.index_copy_(2, cache_position, v)
        s_max = kc.shape[2]
        key_pos = torch.arange(s_max, device=x.device)
        allowed = key_pos[None, :] <= cache_position[:, None]
        scores = q @ kc.transpose(-1, -2) / math.sqrt(dh)
        scores = scores.masked_fill(~allowed, float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        out = (attn @ vc).transpose(1, 2).reshape(b, t, d)
        return self.o(out), kc, vc


def get_inputs():
    return [torch.randn(B, T, D), torch.arange(PAST, PAST + T, dtype=torch.int64)]


def get_init_inputs():
    return [D, H, SMAX]

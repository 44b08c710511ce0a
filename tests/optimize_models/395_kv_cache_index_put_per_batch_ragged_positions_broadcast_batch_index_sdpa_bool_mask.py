"""Ragged KV-cache update by index_put with broadcast index tensors, cache layout (B, S, H, Dh):
k / v cache buffers (3, 19, 2, 10); per-sequence past lengths past_len int64 (3,) from
get_inputs ([5, 11, 2]); positions = past_len[:, None] + torch.arange(4) (3, 4) and
batch = torch.arange(3)[:, None] built in forward; kc = self.k_cache.clone();
kc.index_put_((batch, positions), k_new) with k_new (3, 4, 2, 10) from Linear 20 -> 20 of x
(3, 4, 20); vc = self.v_cache.index_put((batch, positions), v_new) out of place. Per-sequence
causal bool mask arange(19)[None, None, :] <= positions[:, :, None] -> (3, 1, 4, 19),
F.scaled_dot_product_attention(q, kc, vc transposed to (3, 2, ., 10), attn_mask=mask), out
Linear. Buffers are unchanged (clone / out of place). Outputs (3, 4, 20) and kc, vc (3, 19, 2, 10)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, H, DH, SMAX = 3, 4, 20, 2, 10, 19


class Model(nn.Module):
    def __init__(self, dim, heads, max_len):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)
        self.register_buffer("k_cache", torch.randn(B, max_len, heads, self.head_dim))
        self.register_buffer("v_cache", torch.randn(B, max_len, heads, self.head_dim))

    def forward(self, x, past_len):
        b, t, d = x.shape
        h, dh = self.heads, self.head_dim
        q = self.q(x).view(b, t, h, dh)
        k_new = self.k(x).view(b, t, h, dh)
        v_new = self.v(x).view(b, t, h, dh)
        positions = past_len[:, None] + torch.arange(t, device=x.device)
        batch = torch.arange(b, device=x.device)[:, None]
        kc = self.k_cache.clone()
        kc.index_put_((batch, positions), k_new)
        vc = self.v_cache.index_put((batch, positions), v_new)
        s_max = kc.shape[1]
        key_pos = torch.arange(s_max, device=x.device)
        mask = (key_pos[None, None, :] <= positions[:, :, None])[:, None]
        out = F.scaled_dot_product_attention(
            q.transpose(1, 2), kc.transpose(1, 2), vc.transpose(1, 2), attn_mask=mask)
        out = out.transpose(1, 2).reshape(b, t, d)
        return self.o(out), kc, vc


def get_inputs():
    return [torch.randn(B, T, D), torch.tensor([5, 11, 2], dtype=torch.int64)]


def get_init_inputs():
    return [D, H, SMAX]

"""Prefill then one decode step of a GQA attention layer, both on F.scaled_dot_product_attention.
x (2, 13, 60) prompt hidden states (right padded), x_next (2, 1, 60) the next token's hidden state,
lengths int64 (2,) = [13, 9] valid prompt tokens.
nn.RMSNorm(60) pre-norm. q_proj 60 -> 120 (6 heads of 20), k_proj / v_proj 60 -> 40 (2 KV heads of 20),
o_proj 120 -> 60, no biases. RoPE (rotate_half with cat(-x2, x1)) from cos / sin buffers (32, 20).
Prefill: positions arange(13); k / v repeat_interleave(3, dim=1);
SDPA(q, k, v, is_causal=True, scale=0.25) (explicit, not 1 / sqrt(20)); o_proj; residual.
Decode: the new token takes position lengths[b] (cos / sin gathered per row); its k / v (2 KV heads,
before repeat) are concatenated after the 13 prompt k / v: cache (2, 2, 14, 20).
bool attn_mask (2, 1, 1, 14): key j kept iff j < lengths[b] or j == 13 (the new token);
SDPA(q_new, repeat_interleave(k_cache), repeat_interleave(v_cache), attn_mask=mask, scale=0.25);
o_proj; residual.
Outputs: prefill out (2, 13, 60), decode out (2, 1, 60), k cache (2, 2, 14, 20)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HEADS, KV_HEADS, HD, MAX_POS = 2, 13, 60, 6, 2, 20, 32


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Model(nn.Module):
    def __init__(self, dim, heads, kv_heads, hd, max_pos, scale):
        super().__init__()
        self.heads, self.kv_heads, self.hd, self.scale = heads, kv_heads, hd, scale
        self.norm = nn.RMSNorm(dim, eps=1e-6)
        self.q_proj = nn.Linear(dim, heads * hd, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * hd, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * hd, bias=False)
        self.o_proj = nn.Linear(heads * hd, dim, bias=False)
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, hd, 2).float() / hd))
        freqs = torch.outer(torch.arange(max_pos).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos())
        self.register_buffer("sin_cached", emb.sin())

    def project(self, x, cos, sin):
        b, t, _ = x.shape
        h = self.norm(x)
        q = self.q_proj(h).view(b, t, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        return q, k, v

    def forward(self, x, x_next, lengths):
        b, t, _ = x.shape
        g = self.heads // self.kv_heads
        q, k, v = self.project(x, self.cos_cached[:t], self.sin_cached[:t])
        o = F.scaled_dot_product_attention(
            q, k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1), is_causal=True, scale=self.scale
        )
        out = x + self.o_proj(o.transpose(1, 2).reshape(b, t, self.heads * self.hd))

        cos = self.cos_cached[lengths][:, None, None, :]
        sin = self.sin_cached[lengths][:, None, None, :]
        qn, kn, vn = self.project(x_next, cos, sin)
        k_cache = torch.cat([k, kn], dim=2)
        v_cache = torch.cat([v, vn], dim=2)
        slot = torch.arange(t + 1, device=x.device)
        mask = (slot[None, :] < lengths[:, None]) | (slot[None, :] == t)
        o = F.scaled_dot_product_attention(
            qn,
            k_cache.repeat_interleave(g, dim=1),
            v_cache.repeat_interleave(g, dim=1),
            attn_mask=mask[:, None, None, :],
            scale=self.scale,
        )
        out_next = x_next + self.o_proj(o.transpose(1, 2).reshape(b, 1, self.heads * self.hd))
        return out, out_next, k_cache


def get_inputs():
    return [torch.randn(B, T, D), torch.randn(B, 1, D), torch.tensor([13, 9], dtype=torch.int64)]


def get_init_inputs():
    return [D, HEADS, KV_HEADS, HD, MAX_POS, 0.25]

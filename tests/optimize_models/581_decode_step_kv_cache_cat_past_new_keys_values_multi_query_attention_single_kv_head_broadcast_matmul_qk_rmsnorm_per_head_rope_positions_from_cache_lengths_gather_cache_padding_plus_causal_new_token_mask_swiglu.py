"""Decode step of a multi-query-attention decoder layer with a KV cache, QK-norm and RoPE, by hand.
x (3, 3, 60) three new tokens per row; past_k / past_v (3, 1, 10, 12) static cache with one KV head;
cache_lengths int64 (3,) = [10, 4, 7] valid cache slots per row (slots beyond are stale garbage).
Pre RMSNorm (hand-written, weight (60,)). q_proj 60 -> 60 (5 heads of 12), k_proj / v_proj 60 -> 12
(a single KV head), no biases. QK-norm (Qwen3 / OLMo style): RMSNorm over the head dim (weights (12,))
applied to q.view(B, T, 5, 12) and k.view(B, T, 1, 12) before transpose(1, 2).
Positions = cache_lengths[:, None] + arange(3); cos / sin buffers (40, 12) gathered by position
-> (B, 1, T, 12); rotate_half RoPE on q and k.
KV cache: k = cat([past_k, k_new], dim=2) (3, 1, 13, 12), same for v.
Multi-query: q (3, 5, 3, 12) @ k^T (3, 1, 12, 13) broadcasts the one KV head over 5 query heads.
Mask (B, 1, 3, 13): past slot j kept iff j < cache_lengths[b]; new slot 10 + m kept iff m <= i;
masked_fill(finfo.min), softmax, @ v (broadcast), o_proj, residual.
MLP (pre RMSNorm): SwiGLU 60 -> 100 -> 60, residual.
Outputs: x (3, 3, 60), present_k (3, 1, 13, 12), present_v (3, 1, 13, 12)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T_NEW, P, D, HEADS, HD, FF, MAX_POS = 3, 3, 10, 60, 5, 12, 100, 40


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(dim))
        self.eps = eps

    def forward(self, x):
        h = x.float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * h.to(x.dtype)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Model(nn.Module):
    def __init__(self, dim, heads, hd, ff, max_pos):
        super().__init__()
        self.heads, self.hd = heads, hd
        self.input_norm = RMSNorm(dim)
        self.post_norm = RMSNorm(dim)
        self.q_proj = nn.Linear(dim, heads * hd, bias=False)
        self.k_proj = nn.Linear(dim, hd, bias=False)
        self.v_proj = nn.Linear(dim, hd, bias=False)
        self.o_proj = nn.Linear(heads * hd, dim, bias=False)
        self.q_norm = RMSNorm(hd)
        self.k_norm = RMSNorm(hd)
        self.gate_proj = nn.Linear(dim, ff, bias=False)
        self.up_proj = nn.Linear(dim, ff, bias=False)
        self.down_proj = nn.Linear(ff, dim, bias=False)
        inv_freq = 1.0 / (1000000.0 ** (torch.arange(0, hd, 2).float() / hd))
        freqs = torch.outer(torch.arange(max_pos).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, x, past_k, past_v, cache_lengths):
        b, t, _ = x.shape
        p = past_k.shape[2]
        residual = x
        h = self.input_norm(x)
        q = self.q_norm(self.q_proj(h).view(b, t, self.heads, self.hd)).transpose(1, 2)
        k = self.k_norm(self.k_proj(h).view(b, t, 1, self.hd)).transpose(1, 2)
        v = self.v_proj(h).view(b, t, 1, self.hd).transpose(1, 2)
        new_idx = torch.arange(t, device=x.device)
        positions = cache_lengths[:, None] + new_idx[None, :]
        cos = self.cos_cached[positions].unsqueeze(1).to(x.dtype)
        sin = self.sin_cached[positions].unsqueeze(1).to(x.dtype)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = torch.cat([past_k, k], dim=2)
        v = torch.cat([past_v, v], dim=2)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.hd)
        slot = torch.arange(p + t, device=x.device)
        past_ok = (slot[None, None, :] < cache_lengths[:, None, None]) & (slot[None, None, :] < p)
        new_ok = (slot[None, :] >= p) & (slot[None, :] - p <= new_idx[:, None])
        keep = past_ok | new_ok[None]
        scores = scores.masked_fill(~keep[:, None], torch.finfo(scores.dtype).min)
        probs = torch.softmax(scores, dim=-1)
        o = torch.matmul(probs, v).transpose(1, 2).reshape(b, t, self.heads * self.hd)
        x = residual + self.o_proj(o)
        h = self.post_norm(x)
        x = x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))
        return x, k, v


def get_inputs():
    return [
        torch.randn(B, T_NEW, D),
        torch.randn(B, 1, P, HD),
        torch.randn(B, 1, P, HD),
        torch.tensor([10, 4, 7], dtype=torch.int64),
    ]


def get_init_inputs():
    return [D, HEADS, HD, FF, MAX_POS]

"""Mistral-style grouped-query attention, prefill with an empty KV cache. x (2, 13, 48); past_k,
past_v (2, 2, 0, 8) zero-size float inputs. q Linear 48 -> 48 (6 heads of 8), k, v Linear
48 -> 16 (2 kv heads), no biases; k = torch.cat([past_k, k], dim=2) along the middle (sequence)
dim of (B, KV, S, Dh), same for v. repeat_kv by expand + reshape: k[:, :, None].expand(2, 2, 3,
13, 8).reshape(2, 6, 13, 8). Sliding-window causal mask from arange comparisons built in
forward: q positions arange(P, P + 13), k positions arange(S), allowed = (diff >= 0) & (diff <
5); scores q @ k^T / sqrt(8) masked_fill(~allowed, -inf), softmax(dtype=float32), @ v, o Linear
48 -> 48 without bias. Outputs (2, 13, 48) and the updated caches k, v (2, 2, 13, 8)."""

import math

import torch
import torch.nn as nn

B, T, D, HEADS, KV_HEADS, WINDOW = 2, 13, 48, 6, 2, 5


def repeat_kv(hidden, n_rep):
    b, kv, s, dh = hidden.shape
    if n_rep == 1:
        return hidden
    hidden = hidden[:, :, None, :, :].expand(b, kv, n_rep, s, dh)
    return hidden.reshape(b, kv * n_rep, s, dh)


class Model(nn.Module):
    def __init__(self, dim, heads, kv_heads, window):
        super().__init__()
        self.heads = heads
        self.kv_heads = kv_heads
        self.head_dim = dim // heads
        self.window = window
        self.q_proj = nn.Linear(dim, heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(heads * self.head_dim, dim, bias=False)

    def forward(self, x, past_k, past_v):
        b, t, _ = x.shape
        dh = self.head_dim
        q = self.q_proj(x).view(b, t, self.heads, dh).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.kv_heads, dh).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.kv_heads, dh).transpose(1, 2)
        k = torch.cat([past_k, k], dim=2)
        v = torch.cat([past_v, v], dim=2)
        p = past_k.shape[2]
        s = k.shape[2]
        n_rep = self.heads // self.kv_heads
        kr = repeat_kv(k, n_rep)
        vr = repeat_kv(v, n_rep)
        qpos = torch.arange(p, p + t, device=x.device)
        kpos = torch.arange(s, device=x.device)
        diff = qpos[:, None] - kpos[None, :]
        allowed = (diff >= 0) & (diff < self.window)
        scores = torch.matmul(q, kr.transpose(2, 3)) / math.sqrt(dh)
        scores = scores.masked_fill(~allowed, float("-inf"))
        attn = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        out = torch.matmul(attn, vr).transpose(1, 2).reshape(b, t, self.heads * dh)
        return self.o_proj(out), k, v


def get_inputs():
    dh = D // HEADS
    return [torch.randn(B, T, D), torch.randn(B, KV_HEADS, 0, dh), torch.randn(B, KV_HEADS, 0, dh)]


def get_init_inputs():
    return [D, HEADS, KV_HEADS, WINDOW]

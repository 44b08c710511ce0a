"""One Llama-style decoder layer written by hand (no F.scaled_dot_product_attention).
x (2, 13, 48) hidden states.
RMSNorm by hand: x.float() * rsqrt(mean(x^2, -1, keepdim) + 1e-6), cast back, * weight (48,).
Attention: q_proj 48 -> 48 (4 heads of 12), k_proj / v_proj 48 -> 24 (2 KV heads of 12), no biases;
view(B, T, heads, 12).transpose(1, 2). Rotary embedding from cos / sin cache buffers (32, 12)
(inv_freq = 1 / 10000^(arange(0, 12, 2) / 12), emb = cat(freqs, freqs)), sliced [:T];
rotate_half(x) = cat(-x2, x1) of the two halves; q * cos + rotate_half(q) * sin (same for k).
GQA: k / v repeat_interleave(2, dim=1) to 4 heads. scores = q @ k^T / sqrt(12) + causal mask
full((T, T), finfo.min).triu(1) [None, None]; softmax(dim=-1, dtype=float32).to(q.dtype);
@ v, transpose back, reshape (B, T, 48), o_proj, residual.
MLP (pre RMSNorm): SwiGLU down(silu(gate(x)) * up(x)) with 48 -> 92 -> 48, no biases; residual.
Outputs: x (2, 13, 48)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HEADS, KV_HEADS, FF, MAX_POS = 2, 13, 48, 4, 2, 92, 32
HD = D // HEADS


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(dim))
        self.eps = eps

    def forward(self, x):
        dtype = x.dtype
        h = x.float()
        var = h.pow(2).mean(-1, keepdim=True)
        h = h * torch.rsqrt(var + self.eps)
        return self.weight * h.to(dtype)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


class Model(nn.Module):
    def __init__(self, dim, heads, kv_heads, ff, max_pos, theta):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, dim // heads
        self.input_layernorm = RMSNorm(dim)
        self.post_attention_layernorm = RMSNorm(dim)
        self.q_proj = nn.Linear(dim, heads * self.hd, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.o_proj = nn.Linear(heads * self.hd, dim, bias=False)
        self.gate_proj = nn.Linear(dim, ff, bias=False)
        self.up_proj = nn.Linear(dim, ff, bias=False)
        self.down_proj = nn.Linear(ff, dim, bias=False)
        inv_freq = 1.0 / (theta ** (torch.arange(0, self.hd, 2).float() / self.hd))
        t = torch.arange(max_pos).float()
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, x):
        b, t, _ = x.shape
        residual = x
        h = self.input_layernorm(x)
        q = self.q_proj(h).view(b, t, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        cos = self.cos_cached[:t].to(x.dtype)
        sin = self.sin_cached[:t].to(x.dtype)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        groups = self.heads // self.kv_heads
        k = k.repeat_interleave(groups, dim=1)
        v = v.repeat_interleave(groups, dim=1)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.hd)
        mask = torch.full(
            (t, t), torch.finfo(scores.dtype).min, dtype=scores.dtype, device=scores.device
        ).triu(1)
        scores = scores + mask[None, None, :, :]
        probs = F.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        o = torch.matmul(probs, v).transpose(1, 2).reshape(b, t, self.heads * self.hd)
        x = residual + self.o_proj(o)
        residual = x
        h = self.post_attention_layernorm(x)
        h = self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))
        return residual + h


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, HEADS, KV_HEADS, FF, MAX_POS, 10000.0]

"""Rotary position embedding (RoPE) applied by hand to q and k, HF-Llama style:
inv_freq = 1 / 10000 ** (arange(0, Dh, 2) / Dh), freqs = outer(arange(T), inv_freq),
emb = cat(freqs, freqs); cos and sin tables (T, Dh) registered as buffers;
rotate_half(x) = cat(-x[..., Dh//2:], x[..., :Dh//2]) by slicing; q * cos + rotate_half(q)
* sin (same for k); then scores = q_rot @ k_rot.transpose(-2, -1) / sqrt(Dh).
Head dim 14 (even; half 7 is odd). Inputs q, k (2, 3, 17, 14); output (2, 3, 17, 17)."""

import math

import torch
import torch.nn as nn

B, H, T, DH = 2, 3, 17, 14


def rotate_half(x):
    half = x.shape[-1] // 2
    x1 = x[..., :half]
    x2 = x[..., half:]
    return torch.cat((-x2, x1), dim=-1)


class Model(nn.Module):
    def __init__(self, seq_len, head_dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
        t = torch.arange(seq_len, dtype=torch.float32)
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos())
        self.register_buffer("sin_cached", emb.sin())
        self.scale = 1.0 / math.sqrt(head_dim)

    def forward(self, q, k):
        t = q.shape[-2]
        cos = self.cos_cached[:t][None, None, :, :]
        sin = self.sin_cached[:t][None, None, :, :]
        q_rot = q * cos + rotate_half(q) * sin
        k_rot = k * cos + rotate_half(k) * sin
        return torch.matmul(q_rot, k_rot.transpose(-2, -1)) * self.scale


def get_inputs():
    return [torch.randn(B, H, T, DH), torch.randn(B, H, T, DH)]


def get_init_inputs():
    return [T, DH]

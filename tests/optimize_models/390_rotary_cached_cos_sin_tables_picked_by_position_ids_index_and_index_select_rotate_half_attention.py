"""Rotary position embedding with cached tables picked by position ids (HF Llama 'cos_cached'
style): cos / sin buffers (37, 14) built in __init__ from inv_freq = 1 / 10000 ** (arange(0, 14,
2) / 14) and cat(freqs, freqs); int64 position_ids (2, 13) from get_inputs (row 0 a shifted
arange, row 1 arbitrary positions with repeats). For q: self.cos[position_ids] advanced
indexing -> (2, 13, 14) then unsqueeze(1); for k: self.cos.index_select(0,
position_ids.reshape(-1)).view(2, 13, 14).unsqueeze(1). q, k, v from Linear 42 -> 42 (q, k no
bias) on x (2, 13, 42), 3 heads of 14, rotate_half by slicing + cat((-x2, x1)), q_rot @ k_rot^T /
sqrt(14), softmax, @ v, out Linear. Outputs (2, 13, 42) and q_rot, k_rot (2, 3, 13, 14)."""

import math

import torch
import torch.nn as nn

B, T, D, H, MAXPOS = 2, 13, 42, 3, 37


def rotate_half(x):
    half = x.shape[-1] // 2
    x1 = x[..., :half]
    x2 = x[..., half:]
    return torch.cat((-x2, x1), dim=-1)


class Model(nn.Module):
    def __init__(self, dim, heads, max_pos):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q = nn.Linear(dim, dim, bias=False)
        self.k = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, self.head_dim, 2, dtype=torch.float32) / self.head_dim))
        t = torch.arange(max_pos, dtype=torch.float32)
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos())
        self.register_buffer("sin_cached", emb.sin())

    def forward(self, x, position_ids):
        b, t, d = x.shape
        h, dh = self.heads, self.head_dim
        q = self.q(x).view(b, t, h, dh).transpose(1, 2)
        k = self.k(x).view(b, t, h, dh).transpose(1, 2)
        v = self.v(x).view(b, t, h, dh).transpose(1, 2)
        cos_q = self.cos_cached[position_ids].unsqueeze(1)
        sin_q = self.sin_cached[position_ids].unsqueeze(1)
        flat = position_ids.reshape(-1)
        cos_k = self.cos_cached.index_select(0, flat).view(b, t, dh).unsqueeze(1)
        sin_k = self.sin_cached.index_select(0, flat).view(b, t, dh).unsqueeze(1)
        q_rot = q * cos_q + rotate_half(q) * sin_q
        k_rot = k * cos_k + rotate_half(k) * sin_k
        scores = q_rot @ k_rot.transpose(-1, -2) / math.sqrt(dh)
        attn = torch.softmax(scores, dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, t, d)
        return self.o(out), q_rot, k_rot


def get_inputs():
    pos = torch.randint(0, MAXPOS, (B, T), dtype=torch.int64)
    pos[0] = torch.arange(7, 7 + T)
    pos[1, 5] = pos[1, 2]
    return [torch.randn(B, T, D), pos]


def get_init_inputs():
    return [D, H, MAXPOS]

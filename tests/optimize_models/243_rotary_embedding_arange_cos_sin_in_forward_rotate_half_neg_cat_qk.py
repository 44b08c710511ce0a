"""Rotary position embedding (RoPE) applied to q and k from two no-bias Linear projections,
with the tables built in forward: inv_freq = 1 / 10000 ** (arange(0, d, 2) / d), outer product
with arange(T) positions, cat(freqs, freqs) -> cos / sin broadcast over (B, H); rotate_half via
cat((-x2, x1), dim=-1); q * cos + rotate_half(q) * sin.
Input x: (3, 17, 48), 4 heads of 12; outputs q_rot and k_rot, each (3, 4, 17, 12), as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, H = 3, 17, 48, 4


def rotate_half(x):
    half = x.shape[-1] // 2
    x1 = x[..., :half]
    x2 = x[..., half:]
    return torch.cat((-x2, x1), dim=-1)


class Model(nn.Module):
    def __init__(self, d_model, n_head, base):
        super().__init__()
        self.n_head = n_head
        self.base = base
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        b, t, c = x.shape
        hd = c // self.n_head
        q = self.q_proj(x).view(b, t, self.n_head, hd).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.n_head, hd).transpose(1, 2)
        inv_freq = 1.0 / (self.base ** (torch.arange(0, hd, 2, device=x.device).float() / hd))
        pos = torch.arange(t, device=x.device, dtype=torch.float32)
        freqs = torch.outer(pos, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos = emb.cos()[None, None, :, :]
        sin = emb.sin()[None, None, :, :]
        q_rot = q * cos + rotate_half(q) * sin
        k_rot = k * cos + rotate_half(k) * sin
        return q_rot, k_rot


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, H, 10000.0]

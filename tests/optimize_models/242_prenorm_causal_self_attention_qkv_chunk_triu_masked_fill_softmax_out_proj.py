"""Pre-norm causal self-attention written by hand (GPT style): LayerNorm, one Linear to q/k/v
split with chunk(3, dim=-1), heads by view + transpose, q @ k^T / sqrt(d), causal mask built in
forward as torch.triu(ones(T, T), diagonal=1).bool() and masked_fill(-inf), softmax, @ v, heads
merged by transpose + contiguous + view, output projection, residual.
Input x: (3, 17, 48), 4 heads of 12; output (3, 17, 48)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, H = 3, 17, 48, 4


class Model(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.n_head = n_head
        self.ln = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        b, t, c = x.shape
        hd = c // self.n_head
        q, k, v = self.qkv(self.ln(x)).chunk(3, dim=-1)
        q = q.view(b, t, self.n_head, hd).transpose(1, 2)
        k = k.view(b, t, self.n_head, hd).transpose(1, 2)
        v = v.view(b, t, self.n_head, hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        mask = torch.triu(torch.ones(t, t, device=x.device), diagonal=1).bool()
        att = att.masked_fill(mask, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(b, t, c)
        return x + self.proj(y)


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, H]

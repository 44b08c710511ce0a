"""Llama-style feed-forward sub-block: RMSNorm written by hand (x * rsqrt(mean(x^2) + eps) *
weight), one no-bias Linear to 2 * hidden chunked in two (gate, up), silu(gate) * up (SwiGLU),
no-bias down projection, residual.
Input x: (3, 17, 48), hidden 100; output (3, 17, 48)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HID = 3, 17, 48, 100


class Model(nn.Module):
    def __init__(self, d_model, hidden, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d_model) + 0.1 * torch.randn(d_model))
        self.w12 = nn.Linear(d_model, 2 * hidden, bias=False)
        self.w3 = nn.Linear(hidden, d_model, bias=False)

    def forward(self, x):
        h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        h = h * self.weight
        gate, up = self.w12(h).chunk(2, dim=-1)
        out = self.w3(F.silu(gate) * up)
        return x + out


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, HID, 1e-6]

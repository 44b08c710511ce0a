"""Attention written with torch.einsum: scores = einsum('bhqd,bhkd->bhqk', q, k) multiplied
by a learned per-head temperature nn.Parameter of shape (H, 1, 1) (init rand + 0.5, so in
[0.5, 1.5)), softmax over keys, out = einsum('bhqk,bhkd->bhqd', attn, v).
Query and key lengths differ (13 vs 17). Inputs q (2, 4, 13, 9), k and v (2, 4, 17, 9);
output (2, 4, 13, 9)."""

import torch
import torch.nn as nn

B, H, TQ, TK, DH = 2, 4, 13, 17, 9


class Model(nn.Module):
    def __init__(self, heads):
        super().__init__()
        self.temperature = nn.Parameter(torch.rand(heads, 1, 1) + 0.5)

    def forward(self, q, k, v):
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * self.temperature
        attn = scores.softmax(dim=-1)
        return torch.einsum("bhqk,bhkd->bhqd", attn, v)


def get_inputs():
    return [torch.randn(B, H, TQ, DH), torch.randn(B, H, TK, DH), torch.randn(B, H, TK, DH)]


def get_init_inputs():
    return [H]

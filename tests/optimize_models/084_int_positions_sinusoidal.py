"""int64 position ids converted to float for a sinusoidal embedding (sin/cos, cat), added
to a float input; integer-to-float casts inside the chain."""

import torch
import torch.nn as nn

B, T, D = 6, 57, 64


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        half = dim // 2
        inv = torch.exp(-torch.arange(half, dtype=torch.float32) * (9.21 / half))
        self.register_buffer("inv_freq", inv)

    def forward(self, x, pos):
        ang = pos.to(torch.float32).unsqueeze(-1) * self.inv_freq      # (B, T, D/2)
        emb = torch.cat([torch.sin(ang), torch.cos(ang)], dim=-1)
        return x + emb


def get_inputs():
    return [torch.randn(B, T, D), torch.randint(0, 512, (B, T), dtype=torch.int64)]


def get_init_inputs():
    return [D]

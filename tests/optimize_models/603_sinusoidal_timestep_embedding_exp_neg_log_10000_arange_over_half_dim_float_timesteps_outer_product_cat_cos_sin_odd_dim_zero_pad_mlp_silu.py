"""Sinusoidal timestep embedding (DDPM/ADM style): freqs = exp(-log(10000) * arange(half) / half)
built on the input's device; args = t.float()[:, None] * freqs[None]; emb = cat([cos, sin], -1);
odd dim 27 -> zero column padded via F.pad; then Linear -> silu -> Linear.
t = randint(0, 1000, (5,)) int64. Outputs: mlp (5, 31), emb (5, 27)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.dim = dim
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(
            -math.log(10000.0) * torch.arange(half, dtype=torch.float32, device=t.device) / half
        )
        args = t.float()[:, None] * freqs[None]
        emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
        if self.dim % 2:
            emb = F.pad(emb, (0, 1))
        return self.fc2(F.silu(self.fc1(emb))), emb


def get_inputs():
    return [torch.randint(0, 1000, (5,))]


def get_init_inputs():
    return [27, 31]

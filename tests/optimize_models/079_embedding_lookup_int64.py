"""nn.Embedding lookup with int64 token ids plus learned positional embedding, scaled by
sqrt(dim), followed by LayerNorm and dropout-free GELU."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, V, D = 5, 43, 1000, 72


class Model(nn.Module):
    def __init__(self, vocab, seq, dim):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(seq, dim) * 0.02)
        self.ln = nn.LayerNorm(dim)
        self.scale = math.sqrt(dim)

    def forward(self, ids):
        h = self.tok(ids) * self.scale + self.pos
        return F.gelu(self.ln(h))


def get_inputs():
    return [torch.randint(0, V, (B, T), dtype=torch.int64)]


def get_init_inputs():
    return [V, T, D]

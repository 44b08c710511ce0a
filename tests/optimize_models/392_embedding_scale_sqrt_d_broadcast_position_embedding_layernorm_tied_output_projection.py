"""Token embedding lookup, scale, positional add, LayerNorm and a tied output projection:
nn.Embedding(97, 40, padding_idx=0) on int64 ids (3, 17) (some ids 0), * sqrt(40); position
embedding by F.embedding(position_ids, self.pos_weight) with position_ids (1, 17) from get_inputs
(a past-length offset, arange(6, 23)) broadcast over the batch, pos_weight (32, 40); LayerNorm(40);
logits = F.linear(h, self.tok.weight) (tied to the embedding table) + output bias (97,).
Outputs logits (3, 17, 97) and the normed hidden states (3, 17, 40)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, V, MAXPOS, PAST = 3, 17, 40, 97, 32, 6


class Model(nn.Module):
    def __init__(self, vocab, dim, max_pos):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos_weight = nn.Parameter(torch.randn(max_pos, dim) * 0.5)
        self.norm = nn.LayerNorm(dim)
        self.out_bias = nn.Parameter(torch.randn(vocab) * 0.1)
        self.scale = math.sqrt(dim)

    def forward(self, ids, position_ids):
        h = self.tok(ids) * self.scale
        h = h + F.embedding(position_ids, self.pos_weight)
        h = self.norm(h)
        logits = F.linear(h, self.tok.weight) + self.out_bias
        return logits, h


def get_inputs():
    ids = torch.randint(0, V, (B, T), dtype=torch.int64)
    ids[1, -3:] = 0
    ids[2, 4] = 0
    position_ids = torch.arange(PAST, PAST + T, dtype=torch.int64)[None, :]
    return [ids, position_ids]


def get_init_inputs():
    return [V, D, MAXPOS]

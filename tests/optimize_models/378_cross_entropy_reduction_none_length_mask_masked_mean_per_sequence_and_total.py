"""Sequence loss with a length mask: logits (3, 19, 61), int64 targets (3, 19) in [0, 61) and
int64 lengths (3,) in [1, 19]; F.cross_entropy(logits.view(-1, 61), t.view(-1),
reduction='none').view(3, 19), mask = torch.arange(19)[None, :] < lengths[:, None] (built in
forward), masked = loss * mask; per-sequence masked mean masked.sum(1) / mask.sum(1) (3,), and
the token-level masked mean masked.sum() / mask.sum() (0-dim); also returns masked (3, 19)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, V = 3, 19, 61


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, t, lengths):
        b, s, v = logits.shape
        loss = F.cross_entropy(logits.view(-1, v), t.view(-1), reduction="none").view(b, s)
        mask = torch.arange(s, device=logits.device)[None, :] < lengths[:, None]
        mask = mask.to(loss.dtype)
        masked = loss * mask
        per_seq = masked.sum(dim=1) / mask.sum(dim=1)
        total = masked.sum() / mask.sum()
        return per_seq, total, masked


def get_inputs():
    lengths = torch.randint(1, T + 1, (B,), dtype=torch.int64)
    lengths[0] = T
    lengths[1] = 7
    return [torch.randn(B, T, V) * 1.5,
            torch.randint(0, V, (B, T), dtype=torch.int64),
            lengths]


def get_init_inputs():
    return []

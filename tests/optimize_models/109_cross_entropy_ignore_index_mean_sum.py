"""Cross entropy over (229, 997) logits with int64 targets, some of which equal
ignore_index (-1): reduction 'mean' (divides by the count of non-ignored rows) and 'sum';
a third loss uses ignore_index=0 on targets clamped to >= 0, so rows whose target was -1
or 0 are ignored."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C = 229, 997


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, target):
        mean = F.cross_entropy(logits, target, ignore_index=-1, reduction="mean")
        total = F.cross_entropy(logits, target, ignore_index=-1, reduction="sum")
        clamped = F.cross_entropy(logits, target.clamp_min(0), ignore_index=0)
        return mean, total, clamped


def get_inputs():
    logits = torch.randn(N, C) * 2.0
    target = torch.randint(0, C, (N,), dtype=torch.int64)
    target[torch.rand(N) < 0.2] = -1
    target[::9] = -1
    target[4::17] = 0
    return [logits, target]


def get_init_inputs():
    return []

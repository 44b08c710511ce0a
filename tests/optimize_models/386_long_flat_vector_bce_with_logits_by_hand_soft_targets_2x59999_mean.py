"""A loss over one long flattened vector: logits and soft targets (2, 59999) (119998 elements
each, targets torch.rand in [0, 1)), flattened with .reshape(-1); numerically stable BCE with
logits by hand: relu(z) - z * y + log1p(exp(-|z|)), one mean over all 119998 elements
(0-dim), plus the same loss with F.binary_cross_entropy_with_logits on the 2-D tensors
(0-dim) and the max element loss (0-dim)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

R, L = 2, 59999


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, target):
        z = logits.reshape(-1)
        y = target.reshape(-1)
        per = torch.relu(z) - z * y + torch.log1p(torch.exp(-z.abs()))
        ref = F.binary_cross_entropy_with_logits(logits, target)
        return per.mean(), ref, per.amax()


def get_inputs():
    return [torch.randn(R, L) * 3.0, torch.rand(R, L)]


def get_init_inputs():
    return []

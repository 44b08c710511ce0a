"""Whole-tensor reductions to one scalar with a pointwise prologue over a (B, D) tensor: a
multi-label hinge loss with a broadcast (B,) per-row margin and sign labels, and an
MSE-style loss against a broadcast (D,) target with a (D,) weight; the two means are
combined into a single 0-dim output."""

import torch
import torch.nn as nn

B, D = 257, 383


class Model(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, scores, labels, margin, target, weight):
        hinge = torch.clamp(margin.unsqueeze(1) - labels * scores, min=0.0).mean()
        mse = (weight * (scores - target) ** 2).mean()
        return hinge + self.alpha * mse


def get_inputs():
    scores = torch.randn(B, D)
    labels = torch.where(torch.randn(B, D) >= 0, 1.0, -1.0)
    margin = torch.rand(B) + 0.5
    target = torch.randn(D)
    weight = torch.rand(D) + 0.1
    return [scores, labels, margin, target, weight]


def get_init_inputs():
    return [0.3]

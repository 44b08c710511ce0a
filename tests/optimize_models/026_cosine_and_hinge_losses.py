"""Cosine-similarity loss (1 - cos, mean) and hand-written hinge / squared-hinge losses
with sign labels, each reduced with mean."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D = 201, 63


class Model(nn.Module):
    def __init__(self, margin):
        super().__init__()
        self.margin = margin

    def forward(self, a, b, score, label):
        cos = F.cosine_similarity(a, b, dim=1, eps=1e-8)
        cos_loss = (1.0 - cos).mean()
        y = torch.sign(label)
        hinge = torch.clamp(self.margin - y * score, min=0.0).mean()
        sq = torch.relu(1.0 - y * score).pow(2).mean()
        return cos_loss + hinge + 0.5 * sq


def get_inputs():
    return [torch.randn(B, D), torch.randn(B, D), torch.randn(B), torch.randn(B)]


def get_init_inputs():
    return [1.0]

"""Metric-learning losses on embeddings produced by a shared Linear projection:
cosine_embedding_loss with +-1 targets (int64 randint * 2 - 1, cast to float) and margin,
triplet_margin_loss (p=2, swap=True) and its hand-written form with pairwise_distance and
clamp_min, margin_ranking_loss on per-row scores, and nn.TripletMarginLoss(p=1). Anchor is a
strided slice of a larger input (non-contiguous). Outputs a tuple of 0-dim losses and the
per-triplet hand-written loss (B,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D, E = 19, 23, 17


class Model(nn.Module):
    def __init__(self, d_in, d_emb):
        super().__init__()
        self.proj = nn.Linear(d_in, d_emb)
        self.triplet_l1 = nn.TripletMarginLoss(margin=0.5, p=1)

    def forward(self, anchor_big, pos, neg, pm_target, rank_target):
        anchor = anchor_big[::2]  # (B, D) strided view
        a = self.proj(anchor)
        p = self.proj(pos)
        n = self.proj(neg)
        y = (pm_target * 2 - 1).float()
        cos = F.cosine_embedding_loss(a, p, y, margin=0.2)
        tri = F.triplet_margin_loss(a, p, n, margin=1.0, p=2, swap=True)
        d_ap = F.pairwise_distance(a, p)
        d_an = F.pairwise_distance(a, n)
        d_pn = F.pairwise_distance(p, n)
        hand = (d_ap - torch.minimum(d_an, d_pn) + 1.0).clamp_min(0.0)
        tri1 = self.triplet_l1(a, p, n)
        s1 = a.sum(dim=1)
        s2 = p.mean(dim=1) * 3.0
        r = (rank_target * 2 - 1).float()
        mr = F.margin_ranking_loss(s1, s2, r, margin=0.3)
        total = cos + tri + tri1 + mr
        return total, cos, tri, mr, hand


def get_inputs():
    return [
        torch.randn(2 * B - 1, D),
        torch.randn(B, D),
        torch.randn(B, D),
        torch.randint(0, 2, (B,), dtype=torch.int64),
        torch.randint(0, 2, (B,), dtype=torch.int64),
    ]


def get_init_inputs():
    return [D, E]

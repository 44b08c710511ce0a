"""Pair / ranking losses with +-1 float targets computed from an input, each written with F.*
and more than one reduction. Scores s1, s2 (37,) come from one shared Linear 19 -> 1 on
x1, x2 (37, 19) followed by squeeze(-1) (a size-1 dim); y = torch.where(flip > 0, 1.0, -1.0)
(float32 +-1 built from the randn input flip (37,)).
F.margin_ranking_loss(s1, s2, y, margin=0.3): reduction 'none' (37,) and 'sum';
F.hinge_embedding_loss(d, y, margin=1.5) on d = ||a - b||_2 per row of a, b (37, 23):
'none' (37,) and 'mean' (d when y = 1, max(0, 1.5 - d) when y = -1);
F.cosine_embedding_loss(a, b, y, margin=0.2): 'none' (37,) and 'mean'.
Outputs: the three 'none' vectors (37,) and a 0-dim total of the reduced losses."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D_IN, D_EMB = 37, 19, 23


class Model(nn.Module):
    def __init__(self, m_rank, m_hinge, m_cos):
        super().__init__()
        self.score = nn.Linear(D_IN, 1)
        self.m_rank = m_rank
        self.m_hinge = m_hinge
        self.m_cos = m_cos

    def forward(self, x1, x2, flip, a, b):
        y = torch.where(flip > 0, 1.0, -1.0)
        s1 = self.score(x1).squeeze(-1)
        s2 = self.score(x2).squeeze(-1)
        rank_none = F.margin_ranking_loss(s1, s2, y, margin=self.m_rank, reduction="none")
        rank_sum = F.margin_ranking_loss(s1, s2, y, margin=self.m_rank, reduction="sum")
        d = torch.norm(a - b, p=2, dim=-1)
        hinge_none = F.hinge_embedding_loss(d, y, margin=self.m_hinge, reduction="none")
        hinge_mean = F.hinge_embedding_loss(d, y, margin=self.m_hinge, reduction="mean")
        cos_none = F.cosine_embedding_loss(a, b, y, margin=self.m_cos, reduction="none")
        cos_mean = F.cosine_embedding_loss(a, b, y, margin=self.m_cos, reduction="mean")
        total = rank_sum / B + hinge_mean + 2.0 * cos_mean
        return rank_none, hinge_none, cos_none, total


def get_inputs():
    return [
        torch.randn(B, D_IN),
        torch.randn(B, D_IN),
        torch.randn(B),
        torch.randn(B, D_EMB),
        torch.randn(B, D_EMB),
    ]


def get_init_inputs():
    return [0.3, 1.5, 0.2]

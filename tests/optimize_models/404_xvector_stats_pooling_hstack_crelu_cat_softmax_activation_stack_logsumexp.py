"""Concatenations of computed features followed by reductions over the concatenated dim, on a
speaker-embedding style model. x = randn(3, 24, 37).transpose(1, 2) (3, 37, 24), non-contiguous
(B, T, F). h = Linear 24 -> 20 (3, 37, 20). CReLU: torch.cat([relu(h), relu(-h)], dim=-1)
(3, 37, 40) + torch.hstack([b_pos (20,), b_neg (20,)]) (1-D hstack = cat), softmax over the
concatenated last dim. torch.stack([gelu(h), silu(h), tanh(h)], dim=0) (3, 3, 37, 20) and
logsumexp over that new dim 0. x-vector statistics pooling: torch.hstack([c.mean(1), c.std(1)])
of the CReLU features (3, 80) -> Linear 80 -> 16. Per-frame score: torch.cat([lse, p], dim=-1)
(3, 37, 60) summed over the last dim. Outputs embedding (3, 16), softmax (3, 37, 40) and
score (3, 37)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, FEAT, HID, EMB = 3, 37, 24, 20, 16


class Model(nn.Module):
    def __init__(self, feat, hid, emb):
        super().__init__()
        self.inp = nn.Linear(feat, hid)
        self.b_pos = nn.Parameter(torch.randn(hid) * 0.1)
        self.b_neg = nn.Parameter(torch.randn(hid) * 0.1)
        self.emb = nn.Linear(4 * hid, emb)

    def forward(self, x):
        h = self.inp(x)
        c = torch.cat([F.relu(h), F.relu(-h)], dim=-1) + torch.hstack([self.b_pos, self.b_neg])
        p = torch.softmax(c * 2.0, dim=-1)
        acts = torch.stack([F.gelu(h), F.silu(h), torch.tanh(h)], dim=0)
        lse = torch.logsumexp(acts, dim=0)
        stats = torch.hstack([c.mean(dim=1), c.std(dim=1)])
        embedding = self.emb(stats)
        score = torch.cat([lse, p], dim=-1).sum(dim=-1)
        return embedding, p, score


def get_inputs():
    return [torch.randn(B, FEAT, T).transpose(1, 2)]


def get_init_inputs():
    return [FEAT, HID, EMB]

"""Losses with reduction 'none', 'sum' and 'mean' each.
gaussian_nll_loss: mu (11, 7) = x @ Wg (from x (11, 5) and a (5, 7) parameter), target g
(11, 7). F.gaussian_nll_loss with a tensor var checks torch.any(var < 0) in Python, which
torch.export cannot trace (data-dependent), so tensor-var cases are written out with the same
formula: 0.5 * (log(clamp(var, min=eps)) + (mu - g) ** 2 / clamp(var, min=eps))
(+ 0.5 * log(2 pi) when full): var = softplus(v) (11, 7) with full=True, eps=1e-6; var v1 of
shape (11, 1) (one variance per sample, broadcast) with eps=1e-3 and some tiny / zero variances
(clamped to eps), full=False. F.gaussian_nll_loss itself with a Python float var=0.7 (expanded
with ones_like), full=True.
margin_ranking_loss(a (29,), b (29,), yr (29,) of +-1, margin=0.4).
hinge_embedding_loss(d (6, 13) = |x1 - x2| distances, yh (6, 13) of +-1, margin=1.5).
cosine_embedding_loss(e1 (8, 16), e2 (8, 16), yc (8,) of +-1, margin=0.2), with e2[0] = e1[0]
and e2[1] = -e1[1].
triplet_margin_loss(anchor, positive, negative (8, 16), margin=0.5, p=1, swap=True).
Outputs (21): for each loss in the order above, the 'none', 'sum' and 'mean' results."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def gaussian_nll(mu, target, var, full, eps, reduction):
    var = var.clamp(min=eps)
    loss = 0.5 * (torch.log(var) + (mu - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.Wg = nn.Parameter(torch.randn(d_in, d_out) / d_in ** 0.5)

    def forward(self, x, g, v, v1, a, b, yr, x1, x2, yh, e1, e2, yc, an, po, ne):
        mu = x @ self.Wg
        var = F.softplus(v)
        outs = []
        for red in ("none", "sum", "mean"):
            outs.append(gaussian_nll(mu, g, var, full=True, eps=1e-6, reduction=red))
        for red in ("none", "sum", "mean"):
            outs.append(gaussian_nll(mu, g, v1, full=False, eps=1e-3, reduction=red))
        for red in ("none", "sum", "mean"):
            outs.append(F.gaussian_nll_loss(mu, g, 0.7, full=True, reduction=red))
        for red in ("none", "sum", "mean"):
            outs.append(F.margin_ranking_loss(a, b, yr, margin=0.4, reduction=red))
        d = (x1 - x2).abs()
        for red in ("none", "sum", "mean"):
            outs.append(F.hinge_embedding_loss(d, yh, margin=1.5, reduction=red))
        for red in ("none", "sum", "mean"):
            outs.append(F.cosine_embedding_loss(e1, e2, yc, margin=0.2, reduction=red))
        for red in ("none", "sum", "mean"):
            outs.append(
                F.triplet_margin_loss(an, po, ne, margin=0.5, p=1, swap=True, reduction=red)
            )
        return tuple(outs)


def pm1(*shape):
    return torch.randint(0, 2, shape).float() * 2.0 - 1.0


def get_inputs():
    v1 = torch.rand(11, 1) + 0.1
    v1[2, 0] = 1e-5
    v1[7, 0] = 0.0
    e1 = torch.randn(8, 16)
    e2 = torch.randn(8, 16)
    e2[0] = e1[0]
    e2[1] = -e1[1]
    an = torch.randn(8, 16)
    return [
        torch.randn(11, 5),
        torch.randn(11, 7),
        torch.randn(11, 7),
        v1,
        torch.randn(29),
        torch.randn(29),
        pm1(29),
        torch.randn(6, 13),
        torch.randn(6, 13),
        pm1(6, 13),
        e1,
        e2,
        pm1(8),
        an,
        an + 0.5 * torch.randn(8, 16),
        an + 0.8 * torch.randn(8, 16),
    ]


def get_init_inputs():
    return [5, 7]

"""Losses with reduction 'none', 'sum' and 'mean' each.
p, t (9, 23) with a few exact equalities t = p and |p - t| = 0.3 / 2.0 points:
smooth_l1_loss(beta=0.3) x3, huber_loss(delta=2.0) x3.
z (9, 23) logits, y (9, 23) of +-1: soft_margin_loss x3.
y01 (9, 23) of 0. / 1.: multilabel_soft_margin_loss(weight=w (23,) parameter > 0) x3 ('none' is
per sample (9,)).
poisson_nll_loss on rate logits r (9, 23) and counts c (9, 23) in {0..7} (exact zeros, ones and
counts > 1 for the Stirling term): log_input=True full=True x3; log_input=False full=True on
softplus(r) + 0.05 (positive rates) x3.
Outputs (18): for each loss in the order above, the 'none', 'sum' and 'mean' results."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.w = nn.Parameter(0.5 + torch.rand(classes))

    def forward(self, p, t, z, y, y01, r, c):
        outs = []
        for red in ("none", "sum", "mean"):
            outs.append(F.smooth_l1_loss(p, t, reduction=red, beta=0.3))
        for red in ("none", "sum", "mean"):
            outs.append(F.huber_loss(p, t, reduction=red, delta=2.0))
        for red in ("none", "sum", "mean"):
            outs.append(F.soft_margin_loss(z, y, reduction=red))
        for red in ("none", "sum", "mean"):
            outs.append(F.multilabel_soft_margin_loss(z, y01, weight=self.w, reduction=red))
        for red in ("none", "sum", "mean"):
            outs.append(F.poisson_nll_loss(r, c, log_input=True, full=True, reduction=red))
        rate = F.softplus(r) + 0.05
        for red in ("none", "sum", "mean"):
            outs.append(F.poisson_nll_loss(rate, c, log_input=False, full=True, reduction=red))
        return tuple(outs)


def get_inputs():
    p = torch.randn(9, 23) * 2.0
    t = torch.randn(9, 23) * 2.0
    t[0, :5] = p[0, :5]
    t[1, :4] = p[1, :4] + 0.3
    t[2, :4] = p[2, :4] - 2.0
    y = torch.randint(0, 2, (9, 23)).float() * 2.0 - 1.0
    y01 = torch.randint(0, 2, (9, 23)).float()
    c = torch.randint(0, 8, (9, 23)).float()
    return [p, t, torch.randn(9, 23) * 2.0, y, y01, torch.randn(9, 23), c]


def get_init_inputs():
    return [23]

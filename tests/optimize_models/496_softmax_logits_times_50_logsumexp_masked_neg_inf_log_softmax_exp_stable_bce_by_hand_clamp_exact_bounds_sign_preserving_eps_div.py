"""Numerically delicate pointwise / reduction patterns (all outputs finite).
x (11, 37), y (11, 37) soft labels in [0, 1), mask bool (11, 37) with column 0 always False (no
row is fully masked; about 40% of entries masked).
z = x * 50 (logits up to about +-170); p = softmax(z, dim=-1) (mostly one-hot; exp would overflow
without the max shift).
lse = logsumexp(x.masked_fill(mask, -inf), dim=-1) (11,) (masked entries contribute exp(-inf) = 0).
q = log_softmax((x * 3).masked_fill(mask, -inf), dim=-1).exp() (masked entries exactly 0, rows
sum to 1).
Stable BCE with logits by hand: bce = clamp_min(z, 0) - z * y + log1p(exp(-|z|)) (no overflow for
|z| ~ 170), averaged over the last dim -> (11,).
c = (round(x * 4) / 4).clamp(-1.0, 1.0): the quarter-rounded values hit -1.0 and 1.0 exactly and
many lie outside; clamp must keep the bounds exactly.
d = x - round(x) (values near 0); d_safe = where(d >= 0, d.clamp_min(1e-3), d.clamp_max(-1e-3))
(sign-preserving eps); r = tanh(c / d_safe * 0.01) (quotients up to about 1e3 before scaling).
Outputs: p (11, 37), lse - bce (11,), q + r (11, 37), c (11, 37)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, M = 11, 37


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y, mask):
        z = x * 50.0
        p = torch.softmax(z, dim=-1)
        lse = torch.logsumexp(x.masked_fill(mask, float("-inf")), dim=-1)
        q = F.log_softmax((x * 3.0).masked_fill(mask, float("-inf")), dim=-1).exp()
        bce = (z.clamp_min(0.0) - z * y + torch.log1p(torch.exp(-z.abs()))).mean(dim=-1)
        c = (torch.round(x * 4.0) / 4.0).clamp(-1.0, 1.0)
        d = x - torch.round(x)
        d_safe = torch.where(d >= 0, d.clamp_min(1e-3), d.clamp_max(-1e-3))
        r = torch.tanh(c / d_safe * 0.01)
        return p, lse - bce, q + r, c


def get_inputs():
    mask = torch.rand(N, M) < 0.4
    mask[:, 0] = False
    return [torch.randn(N, M) * 1.2, torch.rand(N, M), mask]


def get_init_inputs():
    return []

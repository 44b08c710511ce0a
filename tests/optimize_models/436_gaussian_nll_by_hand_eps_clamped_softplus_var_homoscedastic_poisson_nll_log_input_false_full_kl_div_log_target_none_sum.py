"""Probabilistic regression / distribution losses with F.* and mixed reductions.
Heads: Linear 21 -> 2 * 15 on h (31, 21), chunk(2, -1) into mean mu and raw variance;
var = softplus(raw) (some close to 0).
Gaussian NLL written by hand as F.gaussian_nll_loss computes it (F.gaussian_nll_loss itself
checks torch.any(var < 0) in Python, which torch.export cannot trace): v = var.clamp(min=1e-6),
0.5 * (log(v) + (mu - t) ** 2 / v) + 0.5 * log(2 * pi) (full=True), 'none' (31, 15); and
with a (31, 1) homoscedastic variance var[:, :1] broadcast over the row, 'mean', no constant;
F.poisson_nll_loss(z, k, log_input=True) (mean) on raw log-rates z (31, 15);
F.poisson_nll_loss(softplus(z) + 0.05, k, log_input=False, full=True, reduction='none')
with float counts k in [0, 9) (the Stirling term only where k > 1);
F.kl_div(log_softmax(a), log_softmax(b), log_target=True, reduction='none') (31, 15) and
reduction='sum'.
Outputs: three (31, 15) maps and a 0-dim total."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D, K = 31, 21, 15


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(D, 2 * K)

    def forward(self, h, t, z, k, a, b):
        mu, raw = self.head(h).chunk(2, dim=-1)
        var = F.softplus(raw)
        v = var.clamp(min=1e-6)
        g_none = 0.5 * (torch.log(v) + (mu - t) ** 2 / v) + 0.5 * math.log(2.0 * math.pi)
        v1 = var[:, :1].clamp(min=1e-6)
        g_mean = (0.5 * (torch.log(v1) + (mu - t) ** 2 / v1)).mean()
        p_log = F.poisson_nll_loss(z, k, log_input=True)
        p_none = F.poisson_nll_loss(F.softplus(z) + 0.05, k, log_input=False, full=True,
                                    reduction="none")
        la = F.log_softmax(a, dim=-1)
        lb = F.log_softmax(b, dim=-1)
        kl_none = F.kl_div(la, lb, log_target=True, reduction="none")
        kl_sum = F.kl_div(la, lb, log_target=True, reduction="sum")
        total = g_mean + p_log + kl_sum / B
        return g_none, p_none, kl_none, total


def get_inputs():
    return [
        torch.randn(B, D),
        torch.randn(B, K),
        torch.randn(B, K),
        torch.randint(0, 9, (B, K)).float(),
        torch.randn(B, K),
        torch.randn(B, K),
    ]


def get_init_inputs():
    return []

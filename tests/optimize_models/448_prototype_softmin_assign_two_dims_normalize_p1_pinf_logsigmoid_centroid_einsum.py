"""Soft prototype assignment (soft k-means step): x (5, 43, 17), prototypes P (11, 17).
Squared distances by expansion d2 = |x|^2 + |P|^2 - 2 x P^T (5, 43, 11);
a = F.softmin(d2 / exp(log_tau), dim=-1) (token -> prototype) and b = F.softmin(0.1 * d2, dim=1)
(prototype -> token, over the middle dim); centroids = einsum('bnk,bnd->bkd', b, x);
cent_l1 = F.normalize(centroids, p=1, dim=-1); x_inf = F.normalize(x, p=inf, dim=-1);
recon = einsum('bnk,bkd->bnd', a, cent_l1); score = F.logsigmoid(4 * (recon * x_inf).sum(-1)).
Outputs: a (5, 43, 11), L1-normalised centroids (5, 11, 17), score (5, 43)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, D, K = 5, 43, 17, 11


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.protos = nn.Parameter(torch.randn(K, D))
        self.log_tau = nn.Parameter(torch.tensor(1.3))

    def forward(self, x):
        p = self.protos
        d2 = (x * x).sum(-1, keepdim=True) + (p * p).sum(-1) - 2.0 * (x @ p.t())
        tau = self.log_tau.exp()
        a = F.softmin(d2 / tau, dim=-1)
        b = F.softmin(d2 * 0.1, dim=1)
        cent = torch.einsum("bnk,bnd->bkd", b, x)
        cent_l1 = F.normalize(cent, p=1, dim=-1)
        x_inf = F.normalize(x, p=float("inf"), dim=-1)
        recon = torch.einsum("bnk,bkd->bnd", a, cent_l1)
        score = F.logsigmoid(4.0 * (recon * x_inf).sum(-1))
        return a, cent_l1, score


def get_inputs():
    return [torch.randn(B, N, D)]


def get_init_inputs():
    return []

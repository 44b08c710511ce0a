"""Entropic optimal transport between two point clouds x (B, N, D) and y (B, M, D) after a shared
learned linear projection, solved by 18 unrolled log-domain Sinkhorn iterations. Cost
C = |px|^2 + |py|^2 - 2 px py^T (bmm, clamp_min 0) scaled by its per-sample mean; weights a, b from
softmax of learned scores (a linear head on each point). eps = softplus(raw_eps) + 0.02. Dual
updates f = eps (log a - logsumexp((g - C) / eps, dim=2)), g = eps (log b - logsumexp((f - C) / eps,
dim=1)), with the row-marginal L1 error |P 1 - a| recorded after each iteration. Plan
P = exp((f + g - C) / eps). Outputs: plan (B, N, M), transport cost sum(P C) (B,), dual objective
<a, f> + <b, g> (B,), marginal error history (B, 18)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, M, D, P = 3, 37, 41, 7, 5


class Model(nn.Module):
    def __init__(self, d, p, iters):
        super().__init__()
        self.proj = nn.Linear(d, p)
        self.score = nn.Linear(d, 1)
        self.raw_eps = nn.Parameter(torch.tensor(-2.0))
        self.iters = iters

    def forward(self, x, y):
        px = self.proj(x)
        py = self.proj(y)
        C = (px.pow(2).sum(-1, keepdim=True) + py.pow(2).sum(-1).unsqueeze(1)
             - 2 * torch.bmm(px, py.transpose(1, 2))).clamp_min(0.0)
        C = C / C.mean(dim=(1, 2), keepdim=True)
        log_a = torch.log_softmax(self.score(x).squeeze(-1), dim=1)
        log_b = torch.log_softmax(self.score(y).squeeze(-1), dim=1)
        eps = F.softplus(self.raw_eps) + 0.02
        f = torch.zeros_like(log_a)
        g = torch.zeros_like(log_b)
        errs = []
        for _ in range(self.iters):
            f = eps * (log_a - torch.logsumexp((g.unsqueeze(1) - C) / eps, dim=2))
            g = eps * (log_b - torch.logsumexp((f.unsqueeze(2) - C) / eps, dim=1))
            logP = (f.unsqueeze(2) + g.unsqueeze(1) - C) / eps
            errs.append((torch.exp(logP).sum(dim=2) - torch.exp(log_a)).abs().sum(dim=1))
        Pm = torch.exp((f.unsqueeze(2) + g.unsqueeze(1) - C) / eps)
        cost = (Pm * C).sum(dim=(1, 2))
        dual = (torch.exp(log_a) * f).sum(1) + (torch.exp(log_b) * g).sum(1)
        return Pm, cost, dual, torch.stack(errs, dim=1)


def get_inputs():
    return [torch.randn(B, N, D), torch.randn(B, M, D) + 0.5]


def get_init_inputs():
    return [D, P, 18]

"""Scan-style attention scores with uncommon reductions on a transposed input:
x = randn(3, 23, 19).transpose(1, 2) (3, 19, 23) (B, T, D) non-contiguous.
q, k = Linear 23 -> 11 each; W_v = torch.renorm(V, p=2, dim=0, maxnorm=1.0) on a (11, 23)
parameter (rows with norm > 1 rescaled); S = torch.baddbmm(bias (19, 19), q, k^T, beta=0.5,
alpha=1/sqrt(11)) (3, 19, 19); diag = torch.einsum('bii->bi', S); ctx =
torch.einsum('btd,d->bt', x, u) broadcast against S; masked = S.masked_fill(triu(ones,
diagonal=1), -inf); lc = torch.logcumsumexp(masked, dim=-1) (cumulative log-partition,
finite because the diagonal is kept); d2 = torch.diff(x @ W_v.T, n=2, dim=1, prepend=zeros)
(3, 18, 11); agg = torch.addbmm(zero (11, 11), d2^T, d2) / 3; ent = torch.xlogy(pr, pr) with
pr = softmax(masked) (exact zeros above the diagonal give 0 * log 0 = 0);
lse = torch.logaddexp(diag, ctx); dist = torch.dist(q, k, p=3) and torch.dist(W_v, V, p=1).
Outputs: lc (3, 19, 19), entropy (3, 19), lse (3, 19), agg (11, 11), two 0-dim distances."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, H = 3, 19, 23, 11


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(D, H)
        self.k = nn.Linear(D, H)
        self.V = nn.Parameter(torch.randn(H, D) * 0.3)
        self.bias = nn.Parameter(0.2 * torch.randn(T, T))
        self.u = nn.Parameter(torch.randn(D) * 0.2)

    def forward(self, x):
        q = self.q(x)
        k = self.k(x)
        Wv = torch.renorm(self.V, p=2, dim=0, maxnorm=1.0)
        S = torch.baddbmm(self.bias, q, k.transpose(1, 2), beta=0.5, alpha=1.0 / math.sqrt(H))
        diag = torch.einsum("bii->bi", S)
        ctx = torch.einsum("btd,d->bt", x, self.u)
        upper = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1)
        masked = S.masked_fill(upper, float("-inf"))
        lc = torch.logcumsumexp(masked, dim=-1)
        pr = F.softmax(masked, dim=-1)
        ent = -torch.xlogy(pr, pr).sum(dim=-1)
        val = x @ Wv.t()
        d2 = torch.diff(val, n=2, dim=1, prepend=torch.zeros_like(val[:, :1]))
        agg = torch.addbmm(torch.zeros(H, H, dtype=x.dtype, device=x.device),
                           d2.transpose(1, 2), d2) / B
        lse = torch.logaddexp(diag, ctx)
        dq = torch.dist(q, k, p=3)
        dv = torch.dist(Wv, self.V, p=1)
        return lc, ent, lse, agg, dq, dv


def get_inputs():
    return [torch.randn(B, D, T).transpose(1, 2)]


def get_init_inputs():
    return []

"""Saturating functions and overflow guards at large magnitude (float32).
x (7, 53) randn; big = x * 1e4 (constructor scale).
s1 = sigmoid(big), t1 = tanh(big) (saturate to exactly 0 / +-1 for most entries);
sp = softplus(big) (threshold 20: returns big itself above it);
ls = logsigmoid(big) (stable: about min(big, 0));
naive = log1p(exp(big)) is +inf where big > 88.7; nv = where(isinf(naive), big, naive);
eb = exp(big); ns = eb / (1 + eb) is inf / inf = NaN where eb overflows;
nsg = where(isnan(ns), 1, ns);
lsm = log_softmax(big, dim=-1) (entries down to several times -1e4);
sm = x * 1e-4: zn = (sm - sm.mean(-1)) / (sm.std(-1) + 1e-12) (back to unit scale);
po = softmax(x * 1e-2 + 1e3, dim=-1) (large offset: the shift must cancel it);
vb = (x * 1e3 + 1e5).var(dim=-1) (mean 1e5, variance about 1e6);
lse = logsumexp(big - 5e4, dim=-1).
Outputs: s1, t1, sp, ls, nv, nsg, lsm, zn, po (7, 53); vb, lse (7,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D = 7, 53


class Model(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        big = x * self.scale
        s1 = torch.sigmoid(big)
        t1 = torch.tanh(big)
        sp = F.softplus(big)
        ls = F.logsigmoid(big)
        naive = torch.log1p(torch.exp(big))
        nv = torch.where(torch.isinf(naive), big, naive)
        eb = torch.exp(big)
        ns = eb / (1.0 + eb)
        nsg = torch.where(torch.isnan(ns), torch.ones_like(ns), ns)
        lsm = F.log_softmax(big, dim=-1)
        sm = x * 1e-4
        zn = (sm - sm.mean(dim=-1, keepdim=True)) / (sm.std(dim=-1, keepdim=True) + 1e-12)
        po = torch.softmax(x * 1e-2 + 1e3, dim=-1)
        vb = (x * 1e3 + 1e5).var(dim=-1)
        lse = torch.logsumexp(big - 5e4, dim=-1)
        return s1, t1, sp, ls, nv, nsg, lsm, zn, po, vb, lse


def get_inputs():
    return [torch.randn(N, D)]


def get_init_inputs():
    return [1e4]

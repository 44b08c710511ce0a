"""Reductions over negative dims, several non-adjacent dims, keepdim True and False mixed in one
chain, dim=None full reductions, sum / mean with dtype=, var / std with correction 0 / 1 / 2 and
unbiased=False, std_mean / var_mean tuples.
x (5, 7, 9, 11) float32, w (7, 1, 11) parameter.
a = x.sum(dim=(0, 2), keepdim=True) (1, 7, 1, 11) (non-adjacent dims, keepdim);
b = a.mean(dim=-1) (1, 7, 1) (keepdim False); c = (x * w).amax(dim=(-3, -1)) (5, 9)
(non-adjacent negative dims, keepdim False); d = c.sum(dim=-2, keepdim=True) (1, 9);
chain = (x - a / 45.0) / (b.unsqueeze(-1) + 10.0) -> sum over (1, 3) keepdim True (5, 1, 9, 1)
-> mean over dim -2 keepdim False (5, 1, 1) -> + d.mean() ;
full = x.sum(dim=None) (0-dim), full_m = torch.mean(x, dim=None, keepdim=True) (1, 1, 1, 1);
s64 = x.sum(dim=(1, -1), dtype=torch.float64) (5, 9) float64;
m64 = torch.mean(x, dim=-2, dtype=torch.float64) (5, 7, 11) float64;
v0 = var(x, dim=(0, 3), correction=0), v1 = var(x, dim=(0, 3), correction=1),
v2 = var(x, dim=(0, 3), correction=2, keepdim=True), vu = var(x, dim=-1, unbiased=False);
s2 = std(x, dim=-3, correction=2); su = std(x, (0, -2), unbiased=False, keepdim=True);
sd, mu = std_mean(x, dim=(-4, -2), correction=0); vv, vm = var_mean(x, dim=1, keepdim=True,
correction=2); fv, fm = var_mean(x) (0-dim each, full); fs = std(x, correction=0) (0-dim);
z = (x - vm) / sqrt(vv + 1e-5) + (mu - sd) broadcast back to (5, 7, 9, 11).
Outputs: chain, full, full_m, s64, m64, v0, v1, v2, vu, s2, su, sd, mu, z, fv, fm, fs, c
(float32 and float64)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, c, w_):
        super().__init__()
        self.w = nn.Parameter(torch.randn(c, 1, w_))

    def forward(self, x):
        a = x.sum(dim=(0, 2), keepdim=True)
        b = a.mean(dim=-1)
        c = (x * self.w).amax(dim=(-3, -1))
        d = c.sum(dim=-2, keepdim=True)
        chain = (x - a / 45.0) / (b.unsqueeze(-1) + 10.0)
        chain = chain.sum(dim=(1, 3), keepdim=True).mean(dim=-2) + d.mean()
        full = x.sum(dim=None)
        full_m = torch.mean(x, dim=None, keepdim=True)
        s64 = x.sum(dim=(1, -1), dtype=torch.float64)
        m64 = torch.mean(x, dim=-2, dtype=torch.float64)
        v0 = torch.var(x, dim=(0, 3), correction=0)
        v1 = torch.var(x, dim=(0, 3), correction=1)
        v2 = torch.var(x, dim=(0, 3), correction=2, keepdim=True)
        vu = torch.var(x, dim=-1, unbiased=False)
        s2 = torch.std(x, dim=-3, correction=2)
        su = torch.std(x, (0, -2), unbiased=False, keepdim=True)
        sd, mu = torch.std_mean(x, dim=(-4, -2), correction=0)
        vv, vm = torch.var_mean(x, dim=1, keepdim=True, correction=2)
        fv, fm = torch.var_mean(x)
        fs = torch.std(x, correction=0)
        z = (x - vm) / torch.sqrt(vv + 1e-5) + (mu - sd).unsqueeze(0).unsqueeze(2)
        return (chain, full, full_m, s64, m64, v0, v1, v2, vu, s2, su, sd, mu, z, fv, fm, fs, c)


def get_inputs():
    return [torch.randn(5, 7, 9, 11) * 1.3 + 0.2]


def get_init_inputs():
    return [7, 11]

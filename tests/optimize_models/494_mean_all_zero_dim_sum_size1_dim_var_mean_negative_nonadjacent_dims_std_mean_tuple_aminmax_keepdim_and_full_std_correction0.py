"""Reductions mixing keepdim, negative dims, size-1 dims and tuple-returning ops.
x (5, 1, 9, 13) (size-1 dim 1), y (5, 7, 9, 13).
m_all = y.mean() (0-dim); s1 = x.sum(dim=1) (5, 9, 13) (reduction over the size-1 dim, keepdim
False), a1 = x.amax(dim=-3, keepdim=True) (5, 1, 9, 13) (same size-1 dim, as a negative dim);
st0 = torch.std(y, dim=-1, correction=0, keepdim=True) (5, 7, 9, 1) (population std);
v, mu = torch.var_mean(y, dim=(-3, -1), correction=0, keepdim=True) (5, 1, 9, 1) each
(non-adjacent negative dims);
sd, mu0 = torch.std_mean(y, dim=0) (7, 9, 13) each (keepdim False, correction 1 over 5);
mn, mx = torch.aminmax(y, dim=-2, keepdim=True) (5, 7, 1, 13);
gmn, gmx = torch.aminmax(x) (0-dim each, full reduction).
n = (y - mu) * rsqrt(v + 1e-5) + (mx - mn) * 0.1 + st0 - m_all (5, 7, 9, 13);
o2 = s1.unsqueeze(1) + a1 - (gmx - gmn) (5, 1, 9, 13);
o3 = (mu0 / (sd + 1.0)).mean(dim=-1) (7, 9);
o4 = torch.stack([m_all, gmn, gmx, st0.mean()]) (4,).
Outputs: n (5, 7, 9, 13), o2 (5, 1, 9, 13), o3 (7, 9), o4 (4,)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        m_all = y.mean()
        s1 = x.sum(dim=1)
        a1 = x.amax(dim=-3, keepdim=True)
        st0 = torch.std(y, dim=-1, correction=0, keepdim=True)
        v, mu = torch.var_mean(y, dim=(-3, -1), correction=0, keepdim=True)
        sd, mu0 = torch.std_mean(y, dim=0)
        mn, mx = torch.aminmax(y, dim=-2, keepdim=True)
        gmn, gmx = torch.aminmax(x)
        n = (y - mu) * torch.rsqrt(v + 1e-5) + (mx - mn) * 0.1 + st0 - m_all
        o2 = s1.unsqueeze(1) + a1 - (gmx - gmn)
        o3 = (mu0 / (sd + 1.0)).mean(dim=-1)
        o4 = torch.stack([m_all, gmn, gmx, st0.mean()])
        return n, o2, o3, o4


def get_inputs():
    return [torch.randn(5, 1, 9, 13), torch.randn(5, 7, 9, 13) * 1.5 + 0.3]


def get_init_inputs():
    return []

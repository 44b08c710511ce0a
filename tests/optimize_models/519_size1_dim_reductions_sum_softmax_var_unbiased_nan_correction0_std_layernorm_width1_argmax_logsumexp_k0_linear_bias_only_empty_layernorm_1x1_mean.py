"""Reductions over a dimension of size 1, a GEMM with inner dimension 0, an empty LayerNorm.
x (7, 1, 13) float32:
s = x.sum(1) (7, 13) (= x); sm = softmax(x, dim=1) (exact ones); v0 = x.var(1, correction=0)
(zeros); lse = logsumexp(x, dim=1) (= x); mx = x.amax(1) - x.squeeze(1) (zeros);
y = s * sm.squeeze(1) + lse + mx + v0 (7, 13);
v1 = x.var(dim=1) (unbiased, one sample: all NaN in PyTorch); sd = x.std(dim=1, keepdim=True)
(7, 1, 13) all NaN; am = x.argmax(dim=1) (7, 13) int64 zeros;
ln1 = F.layer_norm(x.transpose(1, 2), (1,), w1, b1) (7, 13, 1): normalising over a width-1
dim gives exactly b1 everywhere (x - mean = 0).
e (4, 0): k0 = F.linear(e, w0, b0) with w0 (6, 0): (4, 6), every row equals b0 (K = 0 GEMM);
mm = e @ e.T (4, 4) all zeros.
x0 (0, 13): lne = LayerNorm(13)(x0) (0, 13).
u (1, 1): um = u.mean() 0-dim.
Outputs: y, v1, sd, am, ln1, k0, mm, lne, um."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, d, k_out):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(1))
        self.b1 = nn.Parameter(torch.randn(1))
        self.w0 = nn.Parameter(torch.randn(k_out, 0))
        self.b0 = nn.Parameter(torch.randn(k_out))
        self.ln = nn.LayerNorm(d)

    def forward(self, x, e, x0, u):
        s = x.sum(dim=1)
        sm = torch.softmax(x, dim=1)
        v0 = x.var(dim=1, correction=0)
        lse = torch.logsumexp(x, dim=1)
        mx = x.amax(dim=1) - x.squeeze(1)
        y = s * sm.squeeze(1) + lse + mx + v0
        v1 = x.var(dim=1)
        sd = x.std(dim=1, keepdim=True)
        am = x.argmax(dim=1)
        ln1 = F.layer_norm(x.transpose(1, 2), (1,), self.w1, self.b1)
        k0 = F.linear(e, self.w0, self.b0)
        mm = e @ e.transpose(0, 1)
        lne = self.ln(x0)
        um = u.mean()
        return y, v1, sd, am, ln1, k0, mm, lne, um


def get_inputs():
    return [
        torch.randn(7, 1, 13),
        torch.randn(4, 0),
        torch.randn(0, 13),
        torch.randn(1, 1),
    ]


def get_init_inputs():
    return [13, 6]

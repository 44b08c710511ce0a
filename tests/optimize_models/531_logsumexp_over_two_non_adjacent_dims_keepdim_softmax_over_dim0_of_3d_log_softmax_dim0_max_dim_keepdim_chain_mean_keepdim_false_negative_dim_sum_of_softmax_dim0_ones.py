"""Softmax and logsumexp over unusual dims mixed with keepdim True / False.
x (9, 11, 15) float32 times 3, p (11, 1) parameter.
l1 = logsumexp(x, dim=(0, 2)) (11,) (two non-adjacent dims), l2 = logsumexp(x, dim=(-1, -2),
keepdim=True) (9, 1, 1), l3 = logsumexp(x * p, dim=0) (11, 15);
sm0 = softmax(x, dim=0) (softmax over the leading dim of a 3-D tensor), ls0 = log_softmax(x + p,
dim=0); ones = sm0.sum(dim=0) (11, 15) all about 1;
mx, idx = (sm0 * 10).max(dim=1, keepdim=True) (9, 1, 15) values and int64 indices;
chain = (x - l2).exp().mean(dim=-1, keepdim=False) (9, 11) -> amax(dim=0, keepdim=True) (1, 11)
-> + l1 -> logsumexp(dim=-1) (1,);
sm_neg = softmax(x, dim=-2) * sm0 -> sum(dim=(0, -1)) (11,).
Outputs: l1, l2, l3, sm0, ls0, ones, mx, idx, chain, sm_neg."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.p = nn.Parameter(torch.randn(m, 1) * 0.5 + 1.0)

    def forward(self, x):
        x = x * 3.0
        l1 = torch.logsumexp(x, dim=(0, 2))
        l2 = torch.logsumexp(x, dim=(-1, -2), keepdim=True)
        l3 = torch.logsumexp(x * self.p, dim=0)
        sm0 = torch.softmax(x, dim=0)
        ls0 = torch.log_softmax(x + self.p, dim=0)
        ones = sm0.sum(dim=0)
        mx, idx = (sm0 * 10.0).max(dim=1, keepdim=True)
        chain = (x - l2).exp().mean(dim=-1, keepdim=False)
        chain = chain.amax(dim=0, keepdim=True) + l1
        chain = torch.logsumexp(chain, dim=-1)
        sm_neg = (torch.softmax(x, dim=-2) * sm0).sum(dim=(0, -1))
        return l1, l2, l3, sm0, ls0, ones, mx, idx, chain, sm_neg


def get_inputs():
    return [torch.randn(9, 11, 15)]


def get_init_inputs():
    return [11]

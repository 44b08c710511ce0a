"""Spectral normalisation done by hand in forward with one power-iteration step (the u buffer
is not updated): v = normalize(W^T u), u' = normalize(W v), sigma = dot(u', W v), then
F.linear(x, W / sigma) with W (19, 29), no bias. The result q (3, 13, 19) is multiplied by
torch.bmm with k.transpose(1, 2).contiguous() (a materialised transposed copy of the second
input (3, 17, 19)), then GELU(approximate='tanh') and a scalar scale.
Inputs (3, 13, 29) and (3, 17, 19); outputs (3, 13, 17) and 0-dim sigma."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, S, D_IN, D_OUT = 3, 13, 17, 29, 19


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(d_out, d_in) * 0.3)
        self.register_buffer("u", F.normalize(torch.randn(d_out), dim=0))

    def forward(self, x, k):
        w = self.weight
        v = F.normalize(w.t() @ self.u, dim=0, eps=1e-12)
        wv = w @ v
        u = F.normalize(wv, dim=0, eps=1e-12)
        sigma = torch.dot(u, wv)
        q = F.linear(x, w / sigma)
        kt = k.transpose(1, 2).contiguous()
        s = torch.bmm(q, kt)
        return F.gelu(s, approximate="tanh") * 0.7, sigma


def get_inputs():
    return [torch.randn(B, T, D_IN), torch.randn(B, S, D_OUT)]


def get_init_inputs():
    return [D_IN, D_OUT]

"""Coordinate network for a 2-D field: random Fourier features gamma(x) = cat(sin, cos)(2 pi x @ B)
with a fixed Gaussian B buffer (2, 37) scaled by sigma, concatenated with the raw coordinates, then a
SIREN MLP: sin(w0 * Linear) with w0 = 30 on the first layer and sin(Linear) (hidden w0 = 1 folded in)
on two hidden layers, SIREN uniform init (+-1/fan_in first, +-sqrt(6/fan_in)/w0 after), linear head.
A skip from the Fourier features to the head. Inputs: coordinates (3, 129, 2) in [-1, 1]-ish (randn).
Output (3, 129, 3)."""

import math

import torch
import torch.nn as nn

NB, NP, NF, HID, OUT = 3, 129, 37, 53, 3


class Model(nn.Module):
    def __init__(self, in_dim, n_freq, hidden, out_dim, sigma, w0):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.register_buffer("B", torch.randn(in_dim, n_freq, generator=g) * sigma)
        self.w0 = w0
        feat = 2 * n_freq + in_dim
        self.l0 = nn.Linear(feat, hidden)
        self.l1 = nn.Linear(hidden, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, out_dim)
        self.skip = nn.Linear(2 * n_freq, out_dim, bias=False)
        with torch.no_grad():
            self.l0.weight.uniform_(-1.0 / feat, 1.0 / feat)
            for l in (self.l1, self.l2, self.head):
                bound = math.sqrt(6.0 / hidden) / w0
                l.weight.uniform_(-bound, bound)
            self.skip.weight.mul_(0.1)

    def forward(self, x):
        proj = 2 * math.pi * (x @ self.B)
        ff = torch.cat([torch.sin(proj), torch.cos(proj)], dim=-1)
        h = torch.sin(self.w0 * self.l0(torch.cat([ff, x], dim=-1)))
        h = torch.sin(self.w0 * self.l1(h))
        h = torch.sin(self.w0 * self.l2(h)) + h
        return self.head(h) + self.skip(ff)


def get_inputs():
    return [torch.randn(NB, NP, 2) * 0.5]


def get_init_inputs():
    return [2, NF, HID, OUT, 1.5, 30.0]

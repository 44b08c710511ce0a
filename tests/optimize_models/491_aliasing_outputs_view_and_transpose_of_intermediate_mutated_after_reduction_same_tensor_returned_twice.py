"""Outputs that alias each other, with an in-place write after the views were taken.
x (15, 21), W (21, 21), b (21,), c (21,).
h = tanh(x @ W + b) (15, 21); v = h.view(5, 3, 21) (a view of h);
s = v.sum(dim=1) + 0.5 * x[:5] (5, 21) is computed BEFORE the in-place update, so it uses the
tanh values (x[:5] is a read-only slice view of the input);
t = h.t() (21, 15), a transposed view (non-contiguous output);
h.mul_(2.0).add_(c) then updates h in place, which v and t observe (their values become
2 * tanh(.) + c); s does not change.
Outputs: (v, t, s, v): v (5, 3, 21), t (21, 15) non-contiguous, s (5, 21), and the same tensor v
returned a second time in the last position. v and t share storage with each other."""

import torch
import torch.nn as nn

N, D = 15, 21


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(D, D) / D ** 0.5)
        self.bias = nn.Parameter(torch.randn(D) * 0.1)
        self.c = nn.Parameter(torch.randn(D) * 0.5)

    def forward(self, x):
        h = torch.tanh(x @ self.weight + self.bias)
        v = h.view(5, 3, D)
        s = v.sum(dim=1) + x[:5] * 0.5
        t = h.t()
        h.mul_(2.0).add_(self.c)
        return v, t, s, v


def get_inputs():
    return [torch.randn(N, D)]


def get_init_inputs():
    return []

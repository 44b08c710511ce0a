"""A zero-size batch in a second input: e is (0, 37). Row reductions of it over the non-empty last
dim give empty (0,) outputs ((e * w).sum(-1), e.amax(-1), and logsumexp of an nn.Linear 37 -> 29 of
e), and e.sum(dim=0) over the empty dim is an all-zero (37,) vector added to a row softmax of the
non-empty (13, 37) input x. All outputs are well-defined (no mean or max over an empty dim).
Inputs x (13, 37) and e (0, 37); outputs (13, 37), (0,), (0,), (0,) as a tuple."""

import torch
import torch.nn as nn

B, D, D_OUT = 13, 37, 29


class Model(nn.Module):
    def __init__(self, features, out_features):
        super().__init__()
        self.w = nn.Parameter(torch.randn(features))
        self.fc = nn.Linear(features, out_features)

    def forward(self, x, e):
        zero_cols = e.sum(dim=0)                              # (37,) zeros
        y = torch.softmax(x * 2.0, dim=-1) + zero_cols - 0.1
        s = (e * self.w).sum(dim=-1)                          # (0,)
        mx = e.amax(dim=-1) * 0.5                             # (0,)
        lse = torch.logsumexp(self.fc(e), dim=-1) - 1.0       # (0,)
        return y, s, mx, lse


def get_inputs():
    return [torch.randn(B, D), torch.randn(0, D)]


def get_init_inputs():
    return [D, D_OUT]

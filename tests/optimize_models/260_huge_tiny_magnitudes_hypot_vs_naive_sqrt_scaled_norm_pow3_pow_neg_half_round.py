"""Very large (~1e30) and very small (~1e-30) magnitudes where naive formulas overflow / underflow.
x (9, 37) ~1e30 and y (9, 37) ~1e-30 (both signs): sqrt(x*x + x'*x') is inf and sqrt(y*y + y'*y') is 0,
torch.hypot is finite; row norm of x scaled by amax(|x|) stays finite; logs of those, sign of tiny y.
p (9, 37) positive: p ** 3, p ** -0.5, round(p, decimals=2), |y| ** -0.5; nan_to_num(posinf=1e30) of the naive inf.
Outputs (9, 37) naive big (all inf), (9, 37) naive small (all 0), (2, 9, 37), (9, 37) x 2, (9, 1)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

R, C = 9, 37


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.w = nn.Parameter(torch.randn(1, c) * 0.1)

    def forward(self, x, y, p):
        x2 = torch.flip(x, dims=(0,))
        y2 = torch.roll(y, 1, dims=1)
        naive_big = torch.sqrt(x * x + x2 * x2)             # inf (x * x overflows)
        hyp_big = torch.hypot(x, x2)                        # ~1e30, finite
        naive_small = torch.sqrt(y * y + y2 * y2)           # 0 (y * y underflows)
        hyp_small = torch.hypot(y, y2)                      # ~1e-30, finite
        m = x.abs().amax(dim=-1, keepdim=True)
        row_norm = m * torch.sqrt(((x / m) ** 2).sum(dim=-1, keepdim=True))  # (9, 1), ~1e31
        logs = torch.stack([torch.log(hyp_big), torch.log(hyp_small)]) + torch.sign(y) * self.w  # ~+-69
        powers = p ** 3 - p ** -0.5 + torch.round(p, decimals=2) + y.abs() ** -0.5 * 1e-15
        capped = torch.nan_to_num(naive_big, posinf=1e30) / hyp_big + naive_small / hyp_small
        return naive_big, naive_small, logs, powers, capped, torch.log(row_norm)


def get_inputs():
    x = torch.randn(R, C) * 1e30
    y = torch.randn(R, C) * 1e-30
    p = torch.rand(R, C) * 3.0 + 0.05
    return [x, y, p]


def get_init_inputs():
    return [C]

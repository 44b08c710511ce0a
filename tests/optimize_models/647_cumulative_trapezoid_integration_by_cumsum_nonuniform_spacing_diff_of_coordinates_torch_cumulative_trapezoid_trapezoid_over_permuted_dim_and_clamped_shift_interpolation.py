"""Numerical integration along the last dim of y (B, C, L) with nonuniform coordinates x (L,):
dx = torch.diff(x), cumulative trapezoid by hand ((y[..., 1:] + y[..., :-1]) / 2 * dx, cumsum,
zero prepended), torch.cumulative_trapezoid and torch.trapezoid for comparison; integration over
a permuted (non-contiguous) dim with a uniform dx; a clamp-boundary shift: y at indices
(arange + s).clamp(0, L-1) gathered with index_select and linearly blended (fractional shift).
Outputs: hand cumulative integral (B, C, L), 0-dim max |hand - torch|, total integrals (B, C),
permuted-dim integral (B, L), shifted signal."""

import torch
import torch.nn as nn

B, C, L = 3, 7, 61


class Model(nn.Module):
    def __init__(self, length, shift):
        super().__init__()
        i = torch.arange(length)
        s = int(shift)
        frac = shift - s
        self.register_buffer("idx0", (i + s).clamp(0, length - 1))
        self.register_buffer("idx1", (i + s + 1).clamp(0, length - 1))
        self.frac = frac

    def forward(self, y, x):
        dx = torch.diff(x)
        seg = 0.5 * (y[..., 1:] + y[..., :-1]) * dx
        ci = torch.cumsum(seg, dim=-1)
        ci = torch.cat([torch.zeros_like(ci[..., :1]), ci], dim=-1)
        ref = torch.cumulative_trapezoid(y, x=x, dim=-1)
        err = (ci[..., 1:] - ref).abs().amax()
        total = torch.trapezoid(y, x=x, dim=-1)
        yp = y.permute(0, 2, 1)  # (B, L, C) non-contiguous
        over_c = torch.trapezoid(yp, dx=0.5, dim=-1)
        shifted = (1 - self.frac) * y.index_select(2, self.idx0) + self.frac * y.index_select(2, self.idx1)
        return ci, err, total, over_c, shifted


def get_inputs():
    y = torch.randn(B, C, L)
    x = torch.cumsum(torch.rand(L) + 0.05, dim=0)
    return [y, x]


def get_init_inputs():
    return [L, 2.25]

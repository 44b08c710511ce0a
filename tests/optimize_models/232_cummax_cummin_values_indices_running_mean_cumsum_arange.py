"""Cumulative scans along different dims of a 3-D tensor: torch.cummax(x, dim=1).values,
torch.cummin(x, dim=-1) (values and int64 indices), and a running mean along dim 1 by
x.cumsum(dim=1) / torch.arange(1, L + 1) built in forward (viewed (1, L, 1), on x's device and
dtype). Combined: (run_max - run_mean) * (C,) scale + run_min of a tanh-transformed input,
and the running range run_max - cummin(x, dim=1).values.
Input x: (5, 29, 7); outputs (5, 29, 7) float, (5, 29, 7) int64 indices, (5, 29, 7) float."""

import torch
import torch.nn as nn

B, L, C = 5, 29, 7


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(channels) + 0.5)

    def forward(self, x):
        run_max = torch.cummax(x, dim=1).values
        t = torch.tanh(x * 1.5)
        run_min, min_idx = torch.cummin(t, dim=-1)
        steps = torch.arange(1, x.shape[1] + 1, device=x.device, dtype=x.dtype).view(1, -1, 1)
        run_mean = x.cumsum(dim=1) / steps
        out = (run_max - run_mean) * self.scale + run_min
        rng = run_max - torch.cummin(x, dim=1).values
        return out, min_idx, rng


def get_inputs():
    return [torch.randn(B, L, C)]


def get_init_inputs():
    return [C]

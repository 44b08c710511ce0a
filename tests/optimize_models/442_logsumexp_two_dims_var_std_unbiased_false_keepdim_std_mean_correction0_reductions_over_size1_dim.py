"""Reductions with keepdim and over a legal size-1 dim on x (3, 1, 13, 29) and y
(3, 5, 13, 29): logsumexp(x, dim=(2, 3)) (3, 1); logsumexp(y, dim=(0, 2), keepdim=True)
(1, 5, 1, 29); y.var(dim=(0, 2), unbiased=False, keepdim=True); x.std(dim=-1,
unbiased=False, keepdim=True); torch.std_mean(y, dim=(1, 3), correction=0, keepdim=True);
over dim 1 of x (size 1): sum, amax(keepdim=True), mean and std(unbiased=False) (all
zeros) and var(dim=(1, 2)) unbiased; x broadcast along y's dim 1 in the normalisation
(y - m) * rsqrt(v + 1e-5) + x.
Outputs: eight tensors of different shapes."""

import torch
import torch.nn as nn

N, C, H, W = 3, 5, 13, 29


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        lse_x = torch.logsumexp(x, dim=(2, 3))
        lse_y = torch.logsumexp(y, dim=(0, 2), keepdim=True)
        v = y.var(dim=(0, 2), unbiased=False, keepdim=True)
        sx = x.std(dim=-1, unbiased=False, keepdim=True)
        s, m = torch.std_mean(y, dim=(1, 3), correction=0, keepdim=True)
        one_sum = x.sum(dim=1)
        one_max = x.amax(dim=1, keepdim=True)
        one_stats = x.mean(dim=1) + x.std(dim=1, unbiased=False)
        v12 = x.var(dim=(1, 2))
        z = (y - m) * torch.rsqrt(v + 1e-5) + x
        return lse_x, lse_y - v, sx * s, one_sum - one_stats, one_max, v12, z, z.amax(dim=(1, 3))


def get_inputs():
    return [torch.randn(N, 1, H, W), torch.randn(N, C, H, W)]


def get_init_inputs():
    return []

"""Reductions on bool and integer tensors: (x > 0.5).any(dim=2) and (x > -2).all(dim=1)
cast to float, (x > 0.5).sum(dim=-1) with no cast (bool sum gives int64),
torch.count_nonzero(x > 0.5, dim=(1, 2)) (int64), torch.aminmax(x, dim=-1) (min and max in
one call), an int64 input's mean after .float() over dim 1, and torch.count_nonzero of the
int64 input (0-dim int64).
Inputs x: (13, 17, 19) randn, ids: (13, 17) int64 in [-5, 5]; outputs (13, 17) float32,
(13, 17) int64, (13,) int64, (13,) float32, () int64 as a tuple."""

import torch
import torch.nn as nn

B, R, C = 13, 17, 19


class Model(nn.Module):
    def __init__(self, hi_threshold, lo_threshold):
        super().__init__()
        self.hi_threshold = hi_threshold
        self.lo_threshold = lo_threshold

    def forward(self, x, ids):
        hi = x > self.hi_threshold
        any_hi = hi.any(dim=2).float()
        all_above = (x > self.lo_threshold).all(dim=1).float()
        mn, mx = torch.aminmax(x, dim=-1)
        feat = any_hi * (mx - mn) + all_above.sum(dim=-1, keepdim=True) - mn
        hi_per_row = hi.sum(dim=-1)
        hi_per_batch = torch.count_nonzero(hi, dim=(1, 2))
        id_mean = ids.float().mean(dim=1)
        nz = torch.count_nonzero(ids)
        return feat, hi_per_row, hi_per_batch, id_mean, nz


def get_inputs():
    return [torch.randn(B, R, C), torch.randint(-5, 6, (B, R))]


def get_init_inputs():
    return [0.5, -2.0]

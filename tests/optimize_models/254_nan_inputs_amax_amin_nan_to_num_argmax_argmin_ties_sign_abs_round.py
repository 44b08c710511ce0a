"""amax / amin of a tensor with NaNs, nan_to_num, argmax / argmin with ties, sign and abs.
x (7, 31) and nan_mask (7, 31) bool: xn = where(nan_mask, nan, x) (rows 1 and 4 hold NaNs); amax over
dim 1 and over (-1, -2), amin over dim 0 keepdim propagate NaN; x * 1e38 overflows to +-inf, then
nan_to_num (default and with nan/posinf/neginf). round(x, decimals=2), clamp and round to {-1, 0, 1} make
ties for argmax(dim=1) / argmin(dim=0, keepdim); outputs (7,), 0-dim, (1, 31), (7, 31) x 2, int64 (7,), (1, 31)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

R, C = 7, 31


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(1, c) + 0.5)

    def forward(self, x, nan_mask):
        xn = torch.where(nan_mask, float("nan"), x)
        mx = xn.amax(dim=1)                              # NaN on rows with a NaN
        mall = torch.amax(xn * self.scale, dim=(-1, -2))  # 0-dim NaN
        mn = xn.amin(dim=0, keepdim=True)                # (1, 31), NaN on columns with a NaN
        big = xn * 1e38                                  # |x| > 3.4 -> +-inf
        d = torch.nan_to_num(big)                        # NaN -> 0, inf -> float32 max
        e = torch.nan_to_num(big, nan=-1.0, posinf=1e4, neginf=-1e4) / 1e4
        clean = torch.nan_to_num(xn, nan=0.0)
        sg = torch.sign(clean) * torch.abs(e)            # sign(0) = 0
        q = torch.clamp(torch.round(clean, decimals=2) * 2, -1, 1).round()  # values in {-1, 0, 1}
        am = q.argmax(dim=1)                             # many ties: first index
        an = torch.argmin(q + (torch.abs(clean) > 5).float(), dim=0, keepdim=True)
        return mx, mall, mn, d * 1e-38 + sg, e, am, an


def get_inputs():
    x = torch.randn(R, C) * 2.5
    nan_mask = torch.zeros(R, C, dtype=torch.bool)
    nan_mask[1] = torch.rand(C) > 0.7
    nan_mask[1, 3] = True
    nan_mask[4, 30] = True
    return [x, nan_mask]


def get_init_inputs():
    return [C]

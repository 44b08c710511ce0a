"""Values that become inf / NaN on purpose, then get handled (or left in the output).
x (11, 37) randn; scale (37,) parameter; fill = -20.0 (constructor, Python float).
c = clamp(x, min=0) has exact zeros, so l = log(c) is -inf there (about half the entries);
a = where(isfinite(l), l, 0) * scale;
b = nan_to_num(l, neginf=fill) (-inf -> -20);
b2 = nan_to_num(l) (default: -inf -> finfo(float32).min = -3.4028e38, a huge finite value);
d = relu(x - 0.3) has exact zeros; q = where(d == 0, 0, x / d) (the unselected branch holds
+-inf from x / 0);
r = sqrt(x) is NaN for negative x; cnt = isnan(r).sum(dim=1) (int64); r2 = where(isnan(r), -1.0, r)
(Python scalar branch).
s (9, 23) randn, mask (9, 23) bool: rows 2 and 6 fully False, row 4 has a single True (col 11).
p = softmax(s.masked_fill(~mask, -inf), dim=-1): rows 2 and 6 are entirely NaN in PyTorch,
row 4 is exactly one-hot; pc = nan_to_num(p, nan=0.0); tot = pc.sum(-1) (1 for normal rows,
0 for the fully masked rows).
Outputs: a, b, b2, q (11, 37) float32; cnt (11,) int64; r2 (11, 37); p (9, 23) with NaN rows;
pc (9, 23); tot (9,)."""

import torch
import torch.nn as nn

N, D = 11, 37
R, L = 9, 23


class Model(nn.Module):
    def __init__(self, dim, fill):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(dim))
        self.fill = fill

    def forward(self, x, s, mask):
        c = torch.clamp(x, min=0.0)
        l = torch.log(c)
        a = torch.where(torch.isfinite(l), l, torch.zeros_like(l)) * self.scale
        b = torch.nan_to_num(l, neginf=self.fill)
        b2 = torch.nan_to_num(l)
        d = torch.relu(x - 0.3)
        q = torch.where(d == 0, torch.zeros_like(x), x / d)
        r = torch.sqrt(x)
        nan_mask = torch.isnan(r)
        cnt = nan_mask.sum(dim=1)
        r2 = torch.where(nan_mask, -1.0, r)
        z = s.masked_fill(~mask, float("-inf"))
        p = torch.softmax(z, dim=-1)
        pc = torch.nan_to_num(p, nan=0.0)
        tot = pc.sum(dim=-1)
        return a, b, b2, q, cnt, r2, p, pc, tot


def get_inputs():
    x = torch.randn(N, D)
    s = torch.randn(R, L) * 2.0
    mask = torch.randn(R, L) > -1.0
    mask[2] = False
    mask[6] = False
    mask[4] = False
    mask[4, 11] = True
    return [x, s, mask]


def get_init_inputs():
    return [D, -20.0]

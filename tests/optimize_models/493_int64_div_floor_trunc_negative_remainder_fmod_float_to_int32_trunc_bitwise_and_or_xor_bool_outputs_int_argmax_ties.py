"""Integer and boolean tensor math with negative values; no float output.
a int64 (13, 17) in [-50, 50]; b int32 (13, 17) in [-40, 40]; f float32 (13, 17) = randn * 7.
fd = torch.div(a, 6, rounding_mode='floor'); td = torch.div(a, 6, rounding_mode='trunc')
(they differ for negative non-multiples of 6: -7 -> -2 vs -1);
fdn = torch.div(a, -4, rounding_mode='floor') (negative divisor); r = a % 6 (sign of divisor,
in [0, 6)); rn = torch.remainder(a, -4) (in (-4, 0]); fm = torch.fmod(a, 6) (sign of dividend).
o1 = fd * 3 + td - r + rn * 2 + fm + fdn (int64).
ft = f.to(torch.int32) (float -> int truncates toward zero: -6.7 -> -6);
o2 = ((ft & b) | (ft ^ 21)) ^ (b >> 2) (int32; >> of negatives is arithmetic, floor).
mask = (fd != td) & (a.to(int32) > b) | (b == 0)  (int64 vs int32 compare), bool (13, 17) = o3.
cnt = mask.sum(dim=1) (int64, a bool sum); q = torch.div(a, 10, rounding_mode='floor') has many
ties per row; am = q.argmax(dim=1) (argmax of an int64 tensor, first maximal index);
o4 = torch.stack([cnt, am, (ft < 0).sum(dim=1)], 0) (3, 13) int64.
Outputs: o1 int64 (13, 17), o2 int32 (13, 17), o3 bool (13, 17), o4 int64 (3, 13)."""

import torch
import torch.nn as nn

N, M = 13, 17


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b, f):
        fd = torch.div(a, 6, rounding_mode="floor")
        td = torch.div(a, 6, rounding_mode="trunc")
        fdn = torch.div(a, -4, rounding_mode="floor")
        r = a % 6
        rn = torch.remainder(a, -4)
        fm = torch.fmod(a, 6)
        o1 = fd * 3 + td - r + rn * 2 + fm + fdn

        ft = f.to(torch.int32)
        o2 = ((ft & b) | (ft ^ 21)) ^ (b >> 2)

        mask = (fd != td) & (a.to(torch.int32) > b) | (b == 0)
        cnt = mask.sum(dim=1)
        q = torch.div(a, 10, rounding_mode="floor")
        am = q.argmax(dim=1)
        o4 = torch.stack([cnt, am, (ft < 0).sum(dim=1)], dim=0)
        return o1, o2, mask, o4


def get_inputs():
    a = torch.randint(-50, 51, (N, M), dtype=torch.int64)
    b = torch.randint(-40, 41, (N, M), dtype=torch.int32)
    return [a, b, torch.randn(N, M) * 7.0]


def get_init_inputs():
    return []

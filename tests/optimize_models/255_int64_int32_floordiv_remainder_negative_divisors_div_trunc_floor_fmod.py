"""Integer arithmetic on int64 and int32 inputs with negative and positive divisors.
a int64 (11, 23) in [-50, 50], b int32 (11, 23) in [-30, 30]: a // 7, a // -7, a % 7, a % -7,
torch.div(a, +-5, rounding_mode='trunc'), torch.fmod(a, -7), floor division and % by b with zeros
replaced (int64 / int32 -> int64), b // 4, b % -3, div trunc on int32 (stays int32), true division to float,
comparisons of floats with int scalars. Outputs int64 (11, 23), int32 (11, 23), float32 (11, 23), int64 (23,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

R, C = 11, 23


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.w = nn.Parameter(torch.randn(c) * 0.1)

    def forward(self, a, b):
        f_pos = a // 7
        f_neg = a // -7
        r_pos = a % 7                                   # in [0, 6]
        r_neg = a % -7                                  # in [-6, 0]
        t_neg = torch.div(a, -5, rounding_mode="trunc")
        t_pos = torch.div(a, 5, rounding_mode="trunc")
        fm = torch.fmod(a, -7)                          # sign of a
        bz = torch.where(b == 0, torch.ones_like(b), b)  # int32, no zero divisors
        fl = torch.div(a, bz, rounding_mode="floor")    # int64
        rm = a % bz                                     # int64, sign of bz
        out64 = f_pos * 1000 + f_neg * 100 + r_pos * 10 + r_neg + t_neg * 3 - t_pos + fm + fl * 7 + rm
        tb = torch.div(b, 4, rounding_mode="trunc")     # int32
        out32 = tb * 100 + (b // 4) * 10 + b % -3 + (b // -9)
        back = (f_neg * -7 + r_neg) - a                 # all zeros
        tdiv = torch.div(a, bz)                         # float32 true division
        af = a.float() / 3
        fout = tdiv * self.w + (af > 2).float() - (af <= -4).float() + (tdiv == 1).float() + back.float()
        col = (a % 3 == 0).sum(dim=0) + (b // 10).sum(dim=0)  # int64 (23,)
        return out64, out32, fout, col


def get_inputs():
    a = torch.randint(-50, 51, (R, C), dtype=torch.int64)
    b = torch.randint(-30, 31, (R, C), dtype=torch.int32)
    b[0, :3] = 0
    return [a, b]


def get_init_inputs():
    return [C]

"""Rounding-mode division and signed powers on negative floats: torch.floor_divide(x, d) and
x // 2.5 (floor semantics: -7.3 // 2.5 == -3), torch.div(x, d, rounding_mode='trunc'),
torch.div(x, -3.0, rounding_mode='floor') with a negative Python divisor, where d has both
signs and |d| in [0.5, 3.5); torch.pow(base, e) with both operands tensors, base of both
signs (|base| in [0.5, 1.5)) and integer-valued float exponents in [-3, 3] (negative base **
odd exponent is negative, never NaN); torch.round(x, decimals=2) and torch.round(x, decimals=-1)
(round half to even on the scaled value).
Inputs x: (29, 31) randn * 5, d: (29, 31), base: (29, 31), e: (29, 31) integer-valued float32;
outputs (29, 31) x 3 as a tuple (all finite)."""

import torch
import torch.nn as nn

R, C = 29, 31


class Model(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.col_shift = nn.Parameter(torch.randn(cols) * 0.1)

    def forward(self, x, d, base, e):
        fd = torch.floor_divide(x, d)
        fs = x // 2.5
        tr = torch.div(x, d, rounding_mode="trunc")
        fl = torch.div(x, -3.0, rounding_mode="floor")
        divs = fd + 10.0 * fs - tr + 0.5 * fl
        p = torch.pow(base, e) + self.col_shift
        r = torch.round(x, decimals=2) + torch.round(x * 3.0, decimals=-1)
        return divs, p, r


def get_inputs():
    x = torch.randn(R, C) * 5.0
    sign_d = torch.where(torch.rand(R, C) < 0.5, -1.0, 1.0)
    d = sign_d * (torch.rand(R, C) * 3.0 + 0.5)
    sign_b = torch.where(torch.rand(R, C) < 0.5, -1.0, 1.0)
    base = sign_b * (torch.rand(R, C) + 0.5)
    e = torch.randint(-3, 4, (R, C)).float()
    return [x, d, base, e]


def get_init_inputs():
    return [C]

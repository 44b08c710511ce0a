"""Non-finite values created inside forward and cleaned up: exact zeros are put into the
numerator and the denominator with torch.where(|v| < threshold, 0, v), so a / b holds +inf,
-inf (nonzero / 0) and NaN (0 / 0) next to finite quotients. torch.nan_to_num with explicit
nan=0.0, posinf=7.5, neginf=-7.5; torch.isfinite mask feeding torch.where and a per-row
fraction of finite entries (bool -> float mean); torch.isposinf / torch.isneginf / torch.isnan
counts per row (bool sum, int64); torch.nan_to_num with the default arguments on
torch.log(a0), which holds NaN (negative a) and -inf (a == 0): -inf becomes the most negative
finite float32 (-3.4028e38), NaN becomes 0.
Inputs a, b: (37, 53) randn; outputs (37, 53) float, (37,) float, (37, 3) int64,
(37, 53) float (finite, with -3.4028e38 entries) as a tuple. All outputs are finite."""

import torch
import torch.nn as nn

R, D = 37, 53


class Model(nn.Module):
    def __init__(self, num_threshold, den_threshold):
        super().__init__()
        self.num_threshold = num_threshold
        self.den_threshold = den_threshold

    def forward(self, a, b):
        a0 = torch.where(a.abs() < self.num_threshold, 0.0, a)
        b0 = torch.where(b.abs() < self.den_threshold, torch.zeros_like(b), b)
        q = a0 / b0
        cleaned = torch.nan_to_num(q, nan=0.0, posinf=7.5, neginf=-7.5)
        finite = torch.isfinite(q)
        safe = torch.where(finite, q, torch.zeros_like(q)).clamp(-10.0, 10.0)
        out = cleaned + torch.tanh(safe)
        frac_finite = finite.float().mean(dim=1)
        counts = torch.stack(
            [torch.isposinf(q).sum(dim=1), torch.isneginf(q).sum(dim=1), torch.isnan(q).sum(dim=1)],
            dim=1,
        )
        logs = torch.nan_to_num(torch.log(a0))
        return out, frac_finite, counts, logs


def get_inputs():
    return [torch.randn(R, D), torch.randn(R, D)]


def get_init_inputs():
    return [0.15, 0.3]

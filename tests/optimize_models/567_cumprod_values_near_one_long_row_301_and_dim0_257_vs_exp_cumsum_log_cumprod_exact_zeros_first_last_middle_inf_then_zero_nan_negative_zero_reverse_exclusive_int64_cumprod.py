"""cumprod of values near 1 over long scans, and of rows with exact zeros.
a (5, 301) = 1 + 1e-3 * randn (long last-dim scan), a0 (257, 7) = 1 - 2e-3 * rand (long dim-0
scan, slowly decaying), z (6, 40) randn * 1.5 with: row 0 zero at position 0, row 1 zero at the
last position 39, row 2 zeros at 10 and 20, row 3 no zero, row 4 +inf at 5 and a zero at 15
(inf * 0 = NaN from 15 on), row 5 -0.0 at 7; k (7, 9) int64 in [-2, 2].
pa = a.cumprod(dim=-1), la = exp(cumsum(log(a), -1)) (the same product through log space),
pa0 = a0.cumprod(dim=0), d = pa - la;
pz = z.cumprod(dim=1) (exact zeros after the first zero, NaN after inf * 0),
rz = flip(cumprod(flip(z, [1]), 1), [1]) (reverse: zeros before the last zero),
ez = cat([ones(6, 1), z.cumprod(1)[:, :-1]], 1) (exclusive: the zero shows one step later),
nz = (pz == 0).sum(dim=1) (int64 count of zero products per row),
pk = k.cumprod(dim=0) (int64, |values| <= 2^7).
Outputs: pa, la, pa0, d, pz, rz, ez, nz, pk."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, a0, z, k):
        pa = a.cumprod(dim=-1)
        la = torch.exp(torch.cumsum(torch.log(a), -1))
        pa0 = a0.cumprod(dim=0)
        d = pa - la
        pz = z.cumprod(dim=1)
        rz = torch.flip(torch.cumprod(torch.flip(z, [1]), 1), [1])
        ones = torch.ones(z.shape[0], 1, dtype=z.dtype, device=z.device)
        ez = torch.cat([ones, z.cumprod(1)[:, :-1]], 1)
        nz = (pz == 0).sum(dim=1)
        pk = k.cumprod(dim=0)
        return pa, la, pa0, d, pz, rz, ez, nz, pk


def get_inputs():
    a = 1.0 + 1e-3 * torch.randn(5, 301)
    a0 = 1.0 - 2e-3 * torch.rand(257, 7)
    z = torch.randn(6, 40) * 1.5
    z[0, 0] = 0.0
    z[1, 39] = 0.0
    z[2, 10] = 0.0
    z[2, 20] = 0.0
    z[4, 5] = float("inf")
    z[4, 15] = 0.0
    z[5, 7] = -0.0
    k = torch.randint(-2, 3, (7, 9))
    return [a, a0, z, k]


def get_init_inputs():
    return []

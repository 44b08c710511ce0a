"""cumsum / cumprod over dim 0 and over a middle dim, reverse (flip, scan, flip) and exclusive
(cat of a zero slice with the narrowed inclusive scan).
x (9, 7, 11) randn, y (6, 5, 13) in [0.6, 1.4] (for cumprod), k (8, 9) int64 in [-5, 5],
b (5, 12, 3) randn (its sign as a bool mask).
c0 = x.cumsum(dim=0), c1 = x.cumsum(dim=1) (middle dim);
r1 = flip(cumsum(flip(x, [1]), 1), [1]) (reverse / suffix sum over the middle dim),
r0 = flip(cumsum(flip(x, [0]), 0), [0]);
e1 = cat([zeros(9, 1, 11), x.cumsum(1).narrow(1, 0, 6)], dim=1) (exclusive prefix sum, middle dim),
e0 = cat([zeros(1, 7, 11), x.cumsum(0)[:-1]], dim=0);
p0 = y.cumprod(dim=0), p1 = y.cumprod(dim=1),
pr1 = flip(cumprod(flip(y, [1]), 1), [1]),
pe0 = cat([ones(1, 5, 13), y.cumprod(0).narrow(0, 0, 5)], dim=0) (exclusive prefix product);
kc = k.cumsum(dim=0) (int64);
mc = (b > 0).cumsum(dim=1) (bool scan gives int64), mcr = flip(cumsum(flip(b > 0, [1]), 1), [1]);
s = c1 - e1 - x (zero up to rounding).
Outputs: 14 tensors (float32 and int64)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y, k, b):
        c0 = x.cumsum(dim=0)
        c1 = x.cumsum(dim=1)
        r1 = torch.flip(torch.cumsum(torch.flip(x, [1]), 1), [1])
        r0 = torch.flip(torch.cumsum(torch.flip(x, [0]), 0), [0])
        z1 = torch.zeros(x.shape[0], 1, x.shape[2], dtype=x.dtype, device=x.device)
        e1 = torch.cat([z1, x.cumsum(1).narrow(1, 0, x.shape[1] - 1)], dim=1)
        z0 = torch.zeros(1, x.shape[1], x.shape[2], dtype=x.dtype, device=x.device)
        e0 = torch.cat([z0, x.cumsum(0)[:-1]], dim=0)
        p0 = y.cumprod(dim=0)
        p1 = y.cumprod(dim=1)
        pr1 = torch.flip(torch.cumprod(torch.flip(y, [1]), 1), [1])
        o0 = torch.ones(1, y.shape[1], y.shape[2], dtype=y.dtype, device=y.device)
        pe0 = torch.cat([o0, y.cumprod(0).narrow(0, 0, y.shape[0] - 1)], dim=0)
        kc = k.cumsum(dim=0)
        m = b > 0
        mc = m.cumsum(dim=1)
        mcr = torch.flip(torch.cumsum(torch.flip(m, [1]), 1), [1])
        s = c1 - e1 - x
        return c0, c1, r1, r0, e1, e0, p0, p1, pr1, pe0, kc, mc, mcr, s


def get_inputs():
    x = torch.randn(9, 7, 11)
    y = torch.rand(6, 5, 13) * 0.8 + 0.6
    k = torch.randint(-5, 6, (8, 9))
    b = torch.randn(5, 12, 3)
    return [x, y, k, b]


def get_init_inputs():
    return []

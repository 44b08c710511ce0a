"""Rounding modes, float division of negatives, float-to-int casts, uint8 bit operations.
h (11, 19) float32: exact multiples of 0.5 in [-10, 10] (many exact halves);
x (11, 19) = randn * 4; u, v (11, 19) uint8 over [0, 255]; sh (11, 19) uint8 in [0, 7].
r = round(h) (half to even: 2.5 -> 2, -0.5 -> -0, 3.5 -> 4); fl, ce, tr = floor/ceil/trunc(h);
rd = round(x, decimals=1); rn = round(x * 10, decimals=-1) (round to tens);
ffd = floor_divide(x, -1.5); frm = remainder(x, -1.5) (sign of divisor); ffm = fmod(x, 1.5)
(sign of dividend);
i32 = x.to(int32) (truncation towards zero); i64 = (x * 1000).long(); ri = r.to(int64);
band = u & v, bor = u | v, bxor = u ^ v, bnot = ~u;
ls = u << sh (bits shifted out of the byte are dropped), rs = u >> 2;
add = u + v, sub = u - v, mul = u * 3 (uint8, wrap mod 256); us = u.sum(dim=1) (int64);
uf = u.float() / 255 + (u > v).float().
Outputs: r, fl, ce, tr, rd, rn, ffd, frm, ffm (float32); i32 (int32); i64, ri (int64);
band, bor, bxor, bnot, ls, rs, add, sub, mul (uint8); us (int64); uf (float32)."""

import torch
import torch.nn as nn

N, D = 11, 19


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, h, x, u, v, sh):
        r = torch.round(h)
        fl = torch.floor(h)
        ce = torch.ceil(h)
        tr = torch.trunc(h)
        rd = torch.round(x, decimals=1)
        rn = torch.round(x * 10.0, decimals=-1)
        ffd = torch.floor_divide(x, -1.5)
        frm = torch.remainder(x, -1.5)
        ffm = torch.fmod(x, 1.5)
        i32 = x.to(torch.int32)
        i64 = (x * 1000.0).long()
        ri = r.to(torch.int64)
        band = u & v
        bor = u | v
        bxor = u ^ v
        bnot = ~u
        ls = u << sh
        rs = u >> 2
        add = u + v
        sub = u - v
        mul = u * 3
        us = u.sum(dim=1)
        uf = u.float() / 255.0 + (u > v).float()
        return (r, fl, ce, tr, rd, rn, ffd, frm, ffm, i32, i64, ri,
                band, bor, bxor, bnot, ls, rs, add, sub, mul, us, uf)


def get_inputs():
    h = torch.randint(-20, 21, (N, D)).float() * 0.5
    x = torch.randn(N, D) * 4.0
    u = torch.randint(0, 256, (N, D), dtype=torch.uint8)
    v = torch.randint(0, 256, (N, D), dtype=torch.uint8)
    sh = torch.randint(0, 8, (N, D), dtype=torch.uint8)
    return [h, x, u, v, sh]


def get_init_inputs():
    return []

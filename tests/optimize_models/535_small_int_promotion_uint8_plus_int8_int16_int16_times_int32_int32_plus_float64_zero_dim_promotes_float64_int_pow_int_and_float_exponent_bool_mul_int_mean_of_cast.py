"""Promotion among small integer types, 0-dim float64 with integer tensors, and integer powers.
u (9, 21) uint8 in [0, 255], s (9, 21) int8 in [-128, 127], t (9, 21) int16 in [-300, 300],
i (9, 21) int32 in [-50, 50], m (9, 21) bool, x (9, 21) float32; d0 () float64 0-dim buffer.
us = u + s (uint8 + int8 -> int16, no wrap), us2 = u - s, tu = t * i (int16 * int32 -> int32),
u2 = u + 200 (uint8 + Python int stays uint8, wraps mod 256), u3 = u * 2 (uint8 wrap);
id0 = i + d0 (int32 tensor + 0-dim float64 -> float64), xd0 = x + d0 (float32 tensor + 0-dim
float64 -> float32), ip = i ** 2 (int32), ipf = i.abs() ** 0.5 (float32), ip3 = i.pow(3) (int32);
bm = m * i (bool * int32 -> int32), bmf = m * x (bool * float32 -> float32), bneg =
(~m).long() + 0 (int64);
mn = i.float().mean(dim=1) + u.to(torch.float32).mean(dim=1) (9,);
su = u.sum(dim=1) (uint8 sums to int64: no wrap), ss = s.sum(dim=0) (int64),
am = torch.maximum(u.to(torch.int16), t) (int16), chain = (us.float() / tu.clamp(min=1)) * x.
Outputs: us, us2, tu, u2, u3, id0, xd0, ip, ipf, ip3, bm, bmf, bneg, mn, su, ss, am, chain."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.register_buffer("d0", torch.tensor(d, dtype=torch.float64))

    def forward(self, u, s, t, i, m, x):
        us = u + s
        us2 = u - s
        tu = t * i
        u2 = u + 200
        u3 = u * 2
        id0 = i + self.d0
        xd0 = x + self.d0
        ip = i ** 2
        ipf = i.abs() ** 0.5
        ip3 = i.pow(3)
        bm = m * i
        bmf = m * x
        bneg = (~m).long() + 0
        mn = i.float().mean(dim=1) + u.to(torch.float32).mean(dim=1)
        su = u.sum(dim=1)
        ss = s.sum(dim=0)
        am = torch.maximum(u.to(torch.int16), t)
        chain = (us.float() / tu.clamp(min=1)) * x
        return us, us2, tu, u2, u3, id0, xd0, ip, ipf, ip3, bm, bmf, bneg, mn, su, ss, am, chain


def get_inputs():
    u = torch.randint(0, 256, (9, 21), dtype=torch.uint8)
    s = torch.randint(-128, 128, (9, 21), dtype=torch.int8)
    t = torch.randint(-300, 301, (9, 21), dtype=torch.int16)
    i = torch.randint(-50, 51, (9, 21), dtype=torch.int32)
    m = torch.rand(9, 21) > 0.4
    x = torch.randn(9, 21)
    return [u, s, t, i, m, x]


def get_init_inputs():
    return [0.1234567890123]

"""Integer arithmetic near the type limits (two's-complement wraparound, as PyTorch's int
kernels give) and integer division of negative numbers.
a, b (13, 17) int32 over the full int32 range; a[0, :3] = [2^31-1, -2^31, 2^31-1],
b[0, :3] = [1, -1, 2^31-1] force wraps.
add = a + b, mul = a * 3, mul2 = a * b, sh = a + 2^30 (int32, wrap);
s = a.sum(dim=1) (int32 sums promote to int64: no wrap); cs = cumsum(a, dim=1) (int64);
af = a.to(float32) / 2^31 (rounding of large ints to float32);
cl = clamp(mul, -2^31 + 5, 2^31 - 5) (int32 bounds near the limits); mx = maximum(a, b);
mn = a.min(dim=0).values; xo = a ^ b; an = a & 0x7FFF.
c (13, 17) int64 in [-2^62, 2^62): c2 = c * 4 + c, c3 = c + 2^62 (int64, wrap).
p (13, 17) int64 in [-50, 50], q (13, 17) int64 nonzero in [-7, 7]:
fd = floor_divide(p, q) (towards -inf), rem = remainder(p, q) (sign of divisor),
fm = fmod(p, q) (sign of dividend), td = div(p, q, rounding_mode='trunc'),
chk = fd * q + rem - p (all zeros); pm = p % -4 (Python int divisor); pf = p // 3.
No INT_MIN / -1 division, no abs/neg of INT_MIN, no shifts of signed values.
Outputs: add, mul, mul2, sh, s, cs, af, cl, mx, mn, xo, an, c2, c3, fd, rem, fm, td, chk, pm, pf."""

import torch
import torch.nn as nn

N, D = 13, 17
I32_MAX = 2 ** 31 - 1
I32_MIN = -(2 ** 31)


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b, c, p, q):
        add = a + b
        mul = a * 3
        mul2 = a * b
        sh = a + 2 ** 30
        s = a.sum(dim=1)
        cs = torch.cumsum(a, dim=1)
        af = a.to(torch.float32) / 2 ** 31
        cl = torch.clamp(mul, min=I32_MIN + 5, max=I32_MAX - 4)
        mx = torch.maximum(a, b)
        mn = a.min(dim=0).values
        xo = a ^ b
        an = a & 0x7FFF
        c2 = c * 4 + c
        c3 = c + 2 ** 62
        fd = torch.floor_divide(p, q)
        rem = torch.remainder(p, q)
        fm = torch.fmod(p, q)
        td = torch.div(p, q, rounding_mode="trunc")
        chk = fd * q + rem - p
        pm = p % -4
        pf = p // 3
        return add, mul, mul2, sh, s, cs, af, cl, mx, mn, xo, an, c2, c3, fd, rem, fm, td, chk, pm, pf


def get_inputs():
    a = torch.randint(I32_MIN, I32_MAX, (N, D), dtype=torch.int32)
    b = torch.randint(I32_MIN, I32_MAX, (N, D), dtype=torch.int32)
    a[0, :3] = torch.tensor([I32_MAX, I32_MIN, I32_MAX], dtype=torch.int32)
    b[0, :3] = torch.tensor([1, -1, I32_MAX], dtype=torch.int32)
    c = torch.randint(-(2 ** 62), 2 ** 62, (N, D), dtype=torch.int64)
    p = torch.randint(-50, 51, (N, D))
    q = torch.randint(1, 8, (N, D)) * (torch.randint(0, 2, (N, D)) * 2 - 1)
    return [a, b, c, p, q]


def get_init_inputs():
    return []

"""Type promotion inside chains of integer, bool and float tensors.
a (11, 13) int64 in [-20, 20], b (11, 13) int32 in [1, 9] (nonzero), m (11, 13) bool,
w (13,) float32 parameter, x (11, 13) float32.
f1 = a + 0.5 (int64 + Python float -> float32), f2 = f1 * 1.25 - a (float32 - int64 -> float32);
g = b * w (int32 * float32 parameter -> float32), g2 = b * 3 (stays int32), g3 = g2 + a (int32 +
int64 -> int64);
bi = m + b (bool + int32 -> int32), bb = m + m (bool + bool -> bool, logical or),
bs = m * 2.5 (bool * Python float -> float32), bk = m.sum(dim=1) + a[:, 0] (int64);
td = a / b (int64 / int32 true division -> float32), td2 = torch.div(b, 4) (float32),
td3 = torch.true_divide(a, 3) (float32);
fd = a // b (floor towards -inf, int64), fdf = fd * 0.1 + x (float32 chain), fd2 =
torch.floor_divide(a, 4).float().exp2() * sigmoid(x);
rm = a % b (int64, sign of divisor) -> rm.float().mean(dim=0) (13,);
ints = (a * b).sum(dim=-1) (int64), mean_f = (a.float() / b).mean(dim=1).
Outputs: f1, f2, g, g2, g3, bi, bb, bs, bk, td, td2, td3, fd, fdf, fd2, rmm, ints, mean_f
(float32, int32, int64 and bool)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.w = nn.Parameter(torch.randn(d))

    def forward(self, a, b, m, x):
        f1 = a + 0.5
        f2 = f1 * 1.25 - a
        g = b * self.w
        g2 = b * 3
        g3 = g2 + a
        bi = m + b
        bb = m + m
        bs = m * 2.5
        bk = m.sum(dim=1) + a[:, 0]
        td = a / b
        td2 = torch.div(b, 4)
        td3 = torch.true_divide(a, 3)
        fd = a // b
        fdf = fd * 0.1 + x
        fd2 = torch.floor_divide(a, 4).float().exp2() * torch.sigmoid(x)
        rmm = (a % b).float().mean(dim=0)
        ints = (a * b).sum(dim=-1)
        mean_f = (a.float() / b).mean(dim=1)
        return f1, f2, g, g2, g3, bi, bb, bs, bk, td, td2, td3, fd, fdf, fd2, rmm, ints, mean_f


def get_inputs():
    a = torch.randint(-20, 21, (11, 13))
    b = torch.randint(1, 10, (11, 13), dtype=torch.int32)
    m = torch.rand(11, 13) > 0.5
    x = torch.randn(11, 13)
    return [a, b, m, x]


def get_init_inputs():
    return [13]

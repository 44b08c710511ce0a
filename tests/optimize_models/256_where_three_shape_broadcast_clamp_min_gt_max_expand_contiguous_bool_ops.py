"""torch.where broadcasting three different shapes, clamp with min > max, expand + contiguous, bool & | ~.
x (3, 17, 29), a (3, 1, 29), b (1, 17, 1): cond = (x > 0) & ~(a < -1) | (b > 1); where(cond, a, b),
where(a > 0, b, x), where(b < 0, x, a); clamp(x, 0.5, -0.5) and clamp(x, min=1, max=0) (all equal to max),
clamp with (1, 1, 29) min and (1, 17, 1) max tensors that cross; a.expand / b.expand .contiguous() then view,
transpose and reshape. Outputs (3, 17, 29), (3, 493), int64 (17,), bool (3, 17, 29)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, T, C = 3, 17, 29


class Model(nn.Module):
    def __init__(self, t, c):
        super().__init__()
        self.lo = nn.Parameter(torch.randn(1, 1, c) * 0.5)
        self.hi = nn.Parameter(torch.randn(1, t, 1) * 0.5)

    def forward(self, x, a, b):
        n, t, c = x.shape
        cond = (x > 0) & ~(a < -1) | (b > 1)             # (3, 17, 29) bool
        w1 = torch.where(cond, a, b)                     # (3, 17, 29) from (3,1,29) and (1,17,1)
        w2 = torch.where(a > 0, b, x)                    # condition (3, 1, 29)
        w3 = torch.where(b < 0, x, a)                    # condition (1, 17, 1)
        c1 = torch.clamp(x, min=0.5, max=-0.5)           # all -0.5
        c2 = x.clamp(min=1, max=0)                       # all 0.0 (int bounds)
        c3 = torch.clamp(x, min=self.lo, max=self.hi)    # max wherever lo > hi
        ae = a.expand(n, t, c).contiguous()
        be = b.expand(n, t, c).contiguous()
        s = (ae * be).view(n * t, c).view(n, t, c)
        z = w1 + w2 * w3 + c1 + c2 + c3 + torch.tanh(s)
        tr = (be - z).transpose(1, 2).reshape(n, c * t)  # non-contiguous -> copy
        cnt = (cond & (x >= 1)).sum(dim=(0, -1))         # int64 (17,)
        return z, tr, cnt, cond | ~(x < 2)


def get_inputs():
    return [torch.randn(N, T, C) * 1.5, torch.randn(N, 1, C) * 1.5, torch.randn(1, T, 1) * 1.5]


def get_init_inputs():
    return [T, C]

"""F.pad constant and reflect, cumsum over dim 0, cumprod of values near 1, and a zero-size input.
x (3, 5, 23): pad (2, 3) constant -1.5, pad (1, 0, 0, 2) constant 0, pad (3, 1) reflect, 2-D reflect
(1, 2, 2, 1) on x.unsqueeze(1); cumsum over dim 0; y (7, 129): cumprod over dim -1 of 1 + 0.01 * tanh(y)
and over dim 0 of 1 - 0.002 * y; e (0, 7): e.sum() (0-dim 0.0) and e.sum(dim=0) (7 zeros) are returned.
Outputs (3, 5, 23), (3, 7, 24), (7, 129), (7, 129), 0-dim, (7,), (0,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, W = 3, 5, 23
R, L = 7, 129
E = 7


class Model(nn.Module):
    def __init__(self, c, e):
        super().__init__()
        self.g = nn.Parameter(torch.randn(1, c, 1))
        self.b = nn.Parameter(torch.randn(e))

    def forward(self, x, y, e):
        pc = F.pad(x, (2, 3), mode="constant", value=-1.5)         # (3, 5, 28)
        pr = F.pad(x, (3, 1), mode="reflect")                      # (3, 5, 27)
        p2 = F.pad(x.unsqueeze(1), (1, 2, 2, 1), mode="reflect")   # (3, 1, 8, 26)
        h = pc[..., 1:24] + pr[..., 2:25] * self.g - p2[:, 0, 2:7, 3:26]
        cs = torch.cumsum(h, dim=0)                                # over the batch dim
        z = F.pad(cs, (1, 0, 0, 2))                                # (3, 7, 24), zeros
        cp = torch.cumprod(1.0 + 0.01 * torch.tanh(y), dim=-1)     # drifts slowly from 1
        cp0 = torch.cumprod(1.0 - 0.002 * y, dim=0)
        es = e.sum()                                               # 0-dim 0.0
        es0 = e.sum(dim=0) + self.b                                # (7,)
        es1 = torch.cumsum(e, dim=0).sum(dim=1)                    # (0,)
        return cs * torch.sigmoid(x), z, cp, cp0 - es, es, es0, es1


def get_inputs():
    return [torch.randn(N, C, W), torch.randn(R, L) * 2.0, torch.randn(0, E)]


def get_init_inputs():
    return [C, E]

"""Masked logsumexp / softmax / log_softmax with -inf entries, a fully masked row and column.
x (5, 129), keep (5, 129) bool: mask = keep & ((x > -2) | (bias > 1)); masked entries set to -inf.
Row 2 and column 7 of keep are all False: logsumexp(dim=-1) is -inf there, softmax / log_softmax
over the last dim and softmax over dim 0 give NaN on the fully masked row / column (kept, not fixed).
Outputs (5,), (5, 129) x 3, (1, 129) logsumexp over dim 0 keepdim, (5, 129) softmax over dim 0."""

import torch
import torch.nn as nn
import torch.nn.functional as F

R, L = 5, 129


class Model(nn.Module):
    def __init__(self, length):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(1, length))
        self.temp = nn.Parameter(torch.rand(1, length) + 0.5)

    def forward(self, x, keep):
        mask = keep & ((x > -2) | (self.bias > 1))
        xm = torch.where(mask, x * self.temp, float("-inf"))
        lse = torch.logsumexp(xm, dim=-1)                    # (5,), row 2 -> -inf
        sm = torch.softmax(xm, dim=-1)                       # row 2 -> NaN
        lsm = F.log_softmax(xm, dim=1)                       # -inf where masked, row 2 NaN
        by_hand = xm - lse.unsqueeze(-1)                     # -inf - -inf = NaN on row 2
        lse0 = torch.logsumexp(xm, dim=0, keepdim=True)      # (1, 129), column 7 -> -inf
        sm0 = torch.softmax(xm, dim=0)                       # column 7 -> NaN
        return lse, sm, lsm, by_hand, lse0, sm0


def get_inputs():
    x = torch.randn(R, L) * 2.0
    keep = torch.rand(R, L) > 0.3
    keep[2] = False
    keep[:, 7] = False
    return [x, keep]


def get_init_inputs():
    return [L]

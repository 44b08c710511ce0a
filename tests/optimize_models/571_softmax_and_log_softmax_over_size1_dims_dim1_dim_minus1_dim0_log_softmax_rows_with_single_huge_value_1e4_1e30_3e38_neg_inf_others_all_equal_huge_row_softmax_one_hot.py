"""softmax / log_softmax over size-1 dims, and over rows holding a single huge value.
a (5, 1, 7), b (3, 7, 1), c (1, 9), r (8, 19) randn with: row 0 holds 1e4 at column 3, row 1 1e30 at
column 18 (last), row 2 3e38 at column 0, row 3 -1e4 at column 9 (one huge negative), row 4 1e4 at
column 5 with -inf at columns 0..2, row 5 all 1e30 (all equal huge), row 6 randn + 50 (a plain
large shift), row 7 plain randn.
sa = softmax(a, dim=1) (all ones), la = log_softmax(a, dim=1) (all zeros),
sb = softmax(b, dim=-1), lb = log_softmax(b * 1e30, dim=-1) (zeros even for huge inputs),
sc = softmax(c, dim=0) (ones);
lr = log_softmax(r, dim=-1) (0 at the huge entry, about -1e4 / -1e30 / -3e38 elsewhere, -inf at the
-inf entries, -log(19) on the all-equal row), sr = softmax(r, dim=1) (one-hot rows 0, 1, 2, 4),
lr0 = log_softmax(r, dim=0) (over the 8 rows: row 5's 1e30 dominates every column but column 0
(3e38 in row 2); column 18 ties rows 1 and 5 at 1e30, giving -log 2; the -inf entries stay -inf).
Outputs: sa, la, sb, lb, sc, lr, sr, lr0."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b, c, r):
        sa = F.softmax(a, dim=1)
        la = F.log_softmax(a, dim=1)
        sb = torch.softmax(b, dim=-1)
        lb = torch.log_softmax(b * 1e30, dim=-1)
        sc = F.softmax(c, dim=0)
        lr = F.log_softmax(r, dim=-1)
        sr = F.softmax(r, dim=1)
        lr0 = F.log_softmax(r, dim=0)
        return sa, la, sb, lb, sc, lr, sr, lr0


def get_inputs():
    r = torch.randn(8, 19)
    r[0, 3] = 1e4
    r[1, 18] = 1e30
    r[2, 0] = 3e38
    r[3, 9] = -1e4
    r[4, 5] = 1e4
    r[4, 0:3] = float("-inf")
    r[5, :] = 1e30
    r[6] += 50.0
    return [torch.randn(5, 1, 7), torch.randn(3, 7, 1), torch.randn(1, 9), r]


def get_init_inputs():
    return []

"""argmax / argmin over dim 0 with ties and with NaN present.
t (9, 7, 11) randn, rounded to {-1, 0, 1} in forward (many ties), with t[:, 0, :] = 0.5 (every
element of those columns tied) and t[4, 1, :] = 2.0 (unique max in the middle of dim 0);
n (8, 13) randn with NaNs: column 0 NaN at rows 2 and 5, column 3 NaN at row 7 (last), column 6 NaN
at row 0, column 9 all NaN; column 11 holds +inf at rows 1 and 4 and -inf at rows 3 and 6;
k (6, 10) int64 in [0, 2] (integer ties), k[:, 2] = 1 (whole column tied).
am = tr.argmax(dim=0) (7, 11), an = tr.argmin(dim=0, keepdim=True) (1, 7, 11)
(ties: the first index along dim 0);
nmx = n.argmax(dim=0), nmn = n.argmin(dim=0) (13,) (a NaN counts as both max and min: the first NaN's
row; rows 1 / 3 for the inf column), nv, ni = n.max(dim=0), nvm, nim = n.min(dim=0) (NaN values
propagate), na = n.amax(dim=0);
ka = k.argmax(dim=0), kn = k.argmin(dim=0) (10,);
fa = tr.argmax() (0-dim, flattened index of the first 2.0);
g = torch.gather(tr, 0, am.unsqueeze(0)) (1, 7, 11).
Outputs: int64 index tensors and float32 values."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, t, n, k):
        tr = torch.clamp(torch.round(t), -1.0, 1.0)
        tr[:, 0, :] = 0.5
        tr[4, 1, :] = 2.0
        am = tr.argmax(dim=0)
        an = tr.argmin(dim=0, keepdim=True)
        nmx = n.argmax(dim=0)
        nmn = n.argmin(dim=0)
        nv, ni = n.max(dim=0)
        nvm, nim = n.min(dim=0)
        na = n.amax(dim=0)
        ka = k.argmax(dim=0)
        kn = k.argmin(dim=0)
        fa = tr.argmax()
        g = torch.gather(tr, 0, am.unsqueeze(0))
        return am, an, nmx, nmn, nv, ni, nvm, nim, na, ka, kn, fa, g


def get_inputs():
    t = torch.randn(9, 7, 11)
    n = torch.randn(8, 13)
    nan = float("nan")
    n[2, 0] = nan
    n[5, 0] = nan
    n[7, 3] = nan
    n[0, 6] = nan
    n[:, 9] = nan
    n[1, 11] = float("inf")
    n[4, 11] = float("inf")
    n[3, 11] = float("-inf")
    n[6, 11] = float("-inf")
    k = torch.randint(0, 3, (6, 10))
    k[:, 2] = 1
    return [t, n, k]


def get_init_inputs():
    return []

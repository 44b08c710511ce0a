"""Reductions of bool and integer tensors, argmax / argmin with deliberate ties, amin / amax of
rows holding +inf / -inf.
x (6, 13, 10) float32 randn, k (6, 13, 10) int64 in [-3, 3],
i (7, 15) int32 in [-1000, 1000], r (9, 12) float32 with row 0 holding +inf, row 1 -inf,
row 2 both, row 3 all +inf, row 4 all -inf.
pos = xr > 0 (bool, xr below): bs = pos.sum(dim=1) (int64, (6, 10)), bsk = pos.sum(dim=(-1, 0), keepdim=True)
(1, 13, 1) int64, bf = pos.sum() (0-dim int64);
pk = k.prod(dim=-1) (int64, |values| <= 3^10, no overflow), pk0 = (k + 4).prod(dim=0, keepdim=True)
(1, 13, 10) int64 (values <= 7^6);
ai = i.amax(dim=0) (15,) int32, ain = i.amin(dim=-1, keepdim=True) (7, 1) int32;
al = (k > -3).all(dim=-1) (6, 13) (mixed), an = (k == 3).any(dim=(0, 2)) (13,), alk = (k > -4).all(dim=1,
keepdim=True) (6, 1, 10) (all True), ful = pos.any() (0-dim bool);
cnz = torch.count_nonzero(k, dim=(0, 2)) (13,) int64, cnz1 = torch.count_nonzero(xr, dim=-2)
(6, 10), cnzall = torch.count_nonzero(k) (0-dim);
xr = round(x * 2) / 2 clamped to [-1, 1] (ties), then written in place: xr[:, :, 0] = 1.0 and
xr[:, :, 1] = -1.0 (whole tie columns: argmax / argmin must give the first index, 0);
am = xr.argmax(dim=1, keepdim=True) (6, 1, 10), amn = xr.argmin(dim=1, keepdim=True);
g = gather(xr, 1, am) - xr.amax(dim=1, keepdim=True) (zeros);
rmx = r.amax(dim=1), rmn = r.amin(dim=-1, keepdim=True), rarg = r.argmax(dim=1) (first +inf),
rmm = r.max(dim=1) values / indices.
Outputs: tuple of bool, int32, int64 and float32 tensors."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, k, i, r):
        xr = torch.clamp(torch.round(x * 2.0) / 2.0, -1.0, 1.0)
        xr[:, :, 0] = 1.0
        xr[:, :, 1] = -1.0
        pos = xr > 0
        bs = pos.sum(dim=1)
        bsk = pos.sum(dim=(-1, 0), keepdim=True)
        bf = pos.sum()
        pk = k.prod(dim=-1)
        pk0 = (k + 4).prod(dim=0, keepdim=True)
        ai = i.amax(dim=0)
        ain = i.amin(dim=-1, keepdim=True)
        al = (k > -3).all(dim=-1)
        an = (k == 3).any(dim=(0, 2))
        alk = (k > -4).all(dim=1, keepdim=True)
        ful = pos.any()
        cnz = torch.count_nonzero(k, dim=(0, 2))
        cnz1 = torch.count_nonzero(xr, dim=-2)
        cnzall = torch.count_nonzero(k)
        am = xr.argmax(dim=1, keepdim=True)
        amn = xr.argmin(dim=1, keepdim=True)
        g = torch.gather(xr, 1, am) - xr.amax(dim=1, keepdim=True)
        rmx = r.amax(dim=1)
        rmn = r.amin(dim=-1, keepdim=True)
        rarg = r.argmax(dim=1)
        rmv, rmi = r.max(dim=1)
        return (bs, bsk, bf, pk, pk0, ai, ain, al, an, alk, ful, cnz, cnz1, cnzall,
                am, amn, g, rmx, rmn, rarg, rmv, rmi)


def get_inputs():
    x = torch.randn(6, 13, 10)
    k = torch.randint(-3, 4, (6, 13, 10))
    i = torch.randint(-1000, 1001, (7, 15), dtype=torch.int32)
    r = torch.randn(9, 12)
    r[0, 3] = float("inf")
    r[0, 8] = float("inf")
    r[1, 5] = float("-inf")
    r[2, 0] = float("-inf")
    r[2, 11] = float("inf")
    r[3, :] = float("inf")
    r[4, :] = float("-inf")
    return [x, k, i, r]


def get_init_inputs():
    return []

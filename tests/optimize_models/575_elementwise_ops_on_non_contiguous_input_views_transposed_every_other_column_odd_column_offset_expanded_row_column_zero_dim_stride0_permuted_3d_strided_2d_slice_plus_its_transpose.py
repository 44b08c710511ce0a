"""Element-wise ops on inputs passed as non-contiguous views.
xt = randn(13, 17).t() (17, 13), strides (1, 17); y (17, 13) contiguous;
ze = randn(9, 22)[:, ::2] (9, 11), strides (22, 2) (every other column);
zo = randn(9, 22)[:, 1::2] (9, 11), strides (22, 2), storage offset 1 (odd columns);
er = randn(1, 11).expand(9, 11) (row broadcast, stride 0 in dim 0);
ec = randn(9, 1).expand(9, 11) (column broadcast, stride 0 in dim 1);
pm = randn(3, 5, 7).permute(2, 0, 1) (7, 3, 5), strides (1, 35, 7); q (7, 3, 5) contiguous;
ss = randn(15, 21)[1::2, ::3] (7, 7), strides (42, 3), storage offset 21;
sc = randn(()).expand(7, 7) (0-dim expanded, strides (0, 0)).
o1 = relu(xt * y + 0.5) (17, 13); o2 = ze - zo; o3 = exp(ze * 0.5) * sigmoid(zo);
o4 = er * ze + ec; o5 = maximum(er, ec);
o6 = where(pm > q, pm, q * 2), o7 = sqrt(abs(pm)) - pm.sum(dim=0) (broadcast over the permuted view);
o8 = tanh(ss) + ss.t() * sc (a strided view plus its own transpose, times a stride-0 scalar).
Outputs: o1 .. o8 (all new tensors; the inputs are not written)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, xt, y, ze, zo, er, ec, pm, q, ss, sc):
        o1 = torch.relu(xt * y + 0.5)
        o2 = ze - zo
        o3 = torch.exp(ze * 0.5) * torch.sigmoid(zo)
        o4 = er * ze + ec
        o5 = torch.maximum(er, ec)
        o6 = torch.where(pm > q, pm, q * 2.0)
        o7 = torch.sqrt(torch.abs(pm)) - pm.sum(dim=0)
        o8 = torch.tanh(ss) + ss.t() * sc
        return o1, o2, o3, o4, o5, o6, o7, o8


def get_inputs():
    xt = torch.randn(13, 17).t()
    y = torch.randn(17, 13)
    ze = torch.randn(9, 22)[:, ::2]
    zo = torch.randn(9, 22)[:, 1::2]
    er = torch.randn(1, 11).expand(9, 11)
    ec = torch.randn(9, 1).expand(9, 11)
    pm = torch.randn(3, 5, 7).permute(2, 0, 1)
    q = torch.randn(7, 3, 5)
    ss = torch.randn(15, 21)[1::2, ::3]
    sc = torch.randn(()).expand(7, 7)
    return [xt, y, ze, zo, er, ec, pm, q, ss, sc]


def get_init_inputs():
    return []

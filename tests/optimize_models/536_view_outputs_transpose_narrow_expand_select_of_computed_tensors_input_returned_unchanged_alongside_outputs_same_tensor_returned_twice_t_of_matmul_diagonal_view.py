"""Outputs that are views of computed tensors, and an input returned unchanged.
x (7, 12, 17) float32, y (17, 9) float32, w (12, 1) parameter.
h = tanh(x * w + 0.1) (7, 12, 17); hT = h.transpose(1, 2) (7, 17, 12, non-contiguous view
output); hn = h.narrow(2, 3, 8) (7, 12, 8, view with an offset); hs = h[:, 5] (select view,
(7, 17)); hst = h[:, ::2, 1::3] (strided slice view);
r = h.sum(dim=1, keepdim=True) (7, 1, 17); re = r.expand(7, 12, 17) (stride-0 view output);
mm = h.reshape(84, 17) @ y (84, 9); mmt = mm.t() (9, 84 view); dg = mm[:9].diagonal() (9,
strided view); u = mm.unflatten(0, (7, 12)).permute(2, 0, 1) (9, 7, 12 permuted view);
rt = r.squeeze(1).t() (17, 7);
y returned unchanged (an input as an output), and h returned twice (same tensor object as two
outputs) plus hT which aliases it.
Outputs: h, hT, hn, hs, hst, re, mmt, dg, u, rt, y, h."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.w = nn.Parameter(torch.randn(c, 1))

    def forward(self, x, y):
        h = torch.tanh(x * self.w + 0.1)
        hT = h.transpose(1, 2)
        hn = h.narrow(2, 3, 8)
        hs = h[:, 5]
        hst = h[:, ::2, 1::3]
        r = h.sum(dim=1, keepdim=True)
        re = r.expand(7, 12, 17)
        mm = h.reshape(84, 17) @ y
        mmt = mm.t()
        dg = mm[:9].diagonal()
        u = mm.unflatten(0, (7, 12)).permute(2, 0, 1)
        rt = r.squeeze(1).t()
        return h, hT, hn, hs, hst, re, mmt, dg, u, rt, y, h


def get_inputs():
    return [torch.randn(7, 12, 17), torch.randn(17, 9)]


def get_init_inputs():
    return [12]

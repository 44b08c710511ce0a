"""Non-contiguous inputs from get_inputs feeding pointwise ops and reductions (a feature
normaliser): x = randn(7, 13, 46)[:, :, ::2] (last-dim stride 2), y = randn(7, 23, 13)
.transpose(1, 2) (strides (299, 1, 13)), g = randn(1, 13, 1).expand(7, 13, 23) (stride 0 on
dims 0 and 2), w = randn(9, 15, 25)[1:8, 1:14, 2:] (storage offset, row stride 25).
z = x * g + y, standardised per channel over the non-adjacent dims (0, 2) (biased var),
times softmax(w, dim=1) (middle dim); amax of y over dim 0 and sum of x over dim 2 as
statistics. All (7, 13, 23); outputs (7, 13, 23), (13, 23), (7, 13) as a tuple."""

import torch
import torch.nn as nn

N, C, L = 7, 13, 23


class Model(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.eps = eps
        self.bias = nn.Parameter(torch.randn(C, 1) * 0.1)

    def forward(self, x, y, g, w):
        z = x * g + y
        mean = z.mean(dim=(0, 2), keepdim=True)
        var = ((z - mean) ** 2).mean(dim=(0, 2), keepdim=True)
        zn = (z - mean) * torch.rsqrt(var + self.eps) + self.bias
        out = zn * torch.softmax(w, dim=1) * C
        ymax = y.amax(dim=0)
        xsum = x.sum(dim=2) - g[:, :, 0]
        return out, ymax, xsum


def get_inputs():
    x = torch.randn(N, C, 2 * L)[:, :, ::2]
    y = torch.randn(N, L, C).transpose(1, 2)
    g = torch.randn(1, C, 1).expand(N, C, L)
    w = torch.randn(N + 2, C + 2, L + 2)[1:N + 1, 1:C + 1, 2:]
    return [x, y, g, w]


def get_init_inputs():
    return [1e-5]

"""Zero-size dimensions in the inputs.
e (0, 17), y (5, 17), z (3, 0, 5), w (3, 4, 5) float32; fc = Linear(17, 23), bias (23,).
a = gelu(e * 2 + 1) (0, 17); h = fc(a) (0, 23) (Linear on an empty batch);
hy = fc(y) (5, 23); c = relu(cat([h, hy, h], dim=0)) + bias (5, 23) (cat of empty and
non-empty);
s0 = e.sum(0) (17,) all zeros; p0 = e.prod(0) (17,) all ones; m0 = e.mean(0) (17,) all NaN
(0 / 0, as PyTorch gives); col = y.mean(0) * p0 + s0 (17,);
zz = softmax(z * 3, dim=-1) (3, 0, 5); zs = z.sum(dim=2) (3, 0); zm = z.amax(dim=-1) (3, 0)
(amax over a non-empty dim of an empty tensor); zt = z.sum(dim=1) + 1 (3, 5) all ones (sum over
the empty dim); zc = cat([z, w], dim=1) * 2 (3, 4, 5).
Outputs: h (0, 23), c (5, 23), col (17,), m0 (17,), zz (3, 0, 5), zs (3, 0), zm (3, 0),
zt (3, 5), zc (3, 4, 5)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, e, y, z, w):
        a = F.gelu(e * 2.0 + 1.0)
        h = self.fc(a)
        hy = self.fc(y)
        c = torch.relu(torch.cat([h, hy, h], dim=0)) + self.bias
        s0 = e.sum(dim=0)
        p0 = e.prod(dim=0)
        m0 = e.mean(dim=0)
        col = y.mean(dim=0) * p0 + s0
        zz = torch.softmax(z * 3.0, dim=-1)
        zs = z.sum(dim=2)
        zm = z.amax(dim=-1)
        zt = z.sum(dim=1) + 1.0
        zc = torch.cat([z, w], dim=1) * 2.0
        return h, c, col, m0, zz, zs, zm, zt, zc


def get_inputs():
    return [
        torch.randn(0, 17),
        torch.randn(5, 17),
        torch.randn(3, 0, 5),
        torch.randn(3, 4, 5),
    ]


def get_init_inputs():
    return [17, 23]

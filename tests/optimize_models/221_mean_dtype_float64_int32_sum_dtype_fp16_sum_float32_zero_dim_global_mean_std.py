"""Reductions with a dtype argument and 0-dim global statistics used as scalars:
x.mean(dim=1, dtype=torch.float64) (float64 result from float32), float16 input
h.sum(dim=0, dtype=torch.float32), int32 input k.sum(dim=1, dtype=torch.float32) and
k.mean(dtype=torch.float32) (0-dim; mean of an int tensor needs the dtype), k.sum() (0-dim
int64); x.mean() and x.std() over all elements (0-dim) standardise x; x.mean(dim=(0, 1))
(0-dim through a dim tuple) centres the float64 row means; float16 h - h.mean() stays
float16. h is a step-sliced view randn(13, 62)[:, ::2]. Inputs x (17, 29) float32,
h (13, 31) float16, k (11, 19) int32 in [-9, 9]; outputs (17, 29) float32, (17,) float64,
(13, 31) float16, (11,) float32."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, h, k):
        gm = x.mean()                                      # 0-dim
        gs = x.std()                                       # 0-dim
        km = k.mean(dtype=torch.float32)                   # 0-dim float32
        ktot = k.sum()                                     # 0-dim int64
        out1 = (x - gm) / gs * (1.0 + 0.1 * km) + ktot.float() * 1e-3
        m64 = x.mean(dim=1, dtype=torch.float64)
        out2 = (m64 - x.mean(dim=(0, 1)).double()) / gs.double()
        s32 = h.sum(dim=0, dtype=torch.float32)            # (31,) float32
        out3 = (h - h.mean()) * torch.tanh(s32 * 0.1).to(h.dtype)
        ks = k.sum(dim=1, dtype=torch.float32) / k.shape[1] - km
        return out1, out2, out3, ks


def get_inputs():
    x = torch.randn(17, 29) * 2.0 + 0.5
    h = torch.randn(13, 62).to(torch.float16)[:, ::2]
    k = torch.randint(-9, 10, (11, 19), dtype=torch.int32)
    return [x, h, k]


def get_init_inputs():
    return []

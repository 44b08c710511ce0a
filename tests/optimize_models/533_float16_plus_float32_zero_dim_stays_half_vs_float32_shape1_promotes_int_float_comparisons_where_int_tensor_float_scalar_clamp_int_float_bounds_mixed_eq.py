"""Promotion rules that depend on dimensionality and category.
h (7, 19) float16, s0 () float32 0-dim input, s1 (1,) float32 input, k (7, 19) int64 in
[-5, 5], i (7, 19) int32 in [-5, 5], x (7, 19) float32 (with some integer values equal to k).
hs0 = h + s0 (0-dim float32 does not promote a dimensioned float16: float16),
hs1 = h + s1 (dimensioned (1,) float32: promotes to float32), dh = hs1 - hs0.float();
hk = h * k (float16 * int64 -> float16), hb = h + torch.tensor(1.5, float64) built in forward
(0-dim float64: stays float16);
c1 = k < x (int64 vs float32 compare), c2 = i == x (int32 vs float32 exact equality),
c3 = k >= 2.5 (int vs Python float), c4 = i.eq(k) (int32 vs int64);
w1 = where(c1, k, 0.5) (int64 tensor and Python float -> float32), w2 = where(c3, i, -1)
(stays int32), w3 = where(c2, k, x) (int64 and float32 tensors -> float32);
cl = clamp(k, min=-2.5, max=3.5) (int with float bounds -> float32), cli = clamp(i, -2, 3)
(stays int32), clt = clamp(x, min=k.float() - 0.5) ;
is0 = i * s0 (int32 * 0-dim float32 -> float32), kh = k + h.sum() (int64 + 0-dim float16 ->
float16).
Outputs: hs0, hs1, dh, hk, hb, c1, c2, c3, c4, w1, w2, w3, cl, cli, clt, is0, kh."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, h, s0, s1, k, i, x):
        hs0 = h + s0
        hs1 = h + s1
        dh = hs1 - hs0.float()
        hk = h * k
        hb = h + torch.tensor(1.5, dtype=torch.float64)
        c1 = k < x
        c2 = i == x
        c3 = k >= 2.5
        c4 = i.eq(k)
        w1 = torch.where(c1, k, 0.5)
        w2 = torch.where(c3, i, -1)
        w3 = torch.where(c2, k, x)
        cl = torch.clamp(k, min=-2.5, max=3.5)
        cli = torch.clamp(i, -2, 3)
        clt = torch.clamp(x, min=k.float() - 0.5)
        is0 = i * s0
        kh = k + h.sum()
        return hs0, hs1, dh, hk, hb, c1, c2, c3, c4, w1, w2, w3, cl, cli, clt, is0, kh


def get_inputs():
    h = torch.randn(7, 19).half()
    s0 = torch.tensor(0.3183)
    s1 = torch.tensor([0.3183])
    k = torch.randint(-5, 6, (7, 19))
    i = torch.randint(-5, 6, (7, 19), dtype=torch.int32)
    x = torch.randn(7, 19) * 3.0
    x[:, ::3] = k[:, ::3].float()
    x[1::2, 1::3] = i[1::2, 1::3].float()
    return [h, s0, s1, k, i, x]


def get_init_inputs():
    return []

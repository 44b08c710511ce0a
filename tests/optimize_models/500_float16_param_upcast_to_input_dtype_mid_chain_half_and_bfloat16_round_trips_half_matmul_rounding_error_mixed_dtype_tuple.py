"""Manual mixed precision (no autocast): casts in the middle of a float32 chain.
x (9, 33) float32; parameters w16 (33, 21) float16, b (21,) float32, w2 (21, 7) float16.
h = x @ w16.to(x.dtype) + b (9, 21) float32 (float16 weight up-cast explicitly to the input dtype);
h16 = h.half() (rounded to float16); err = h - h16.float() (the float16 rounding error: nonzero
for almost every entry, at most about 1e-3 here; it is 0 if a compiler drops the cast);
g16 = sigmoid(h16) computed in float16; z16 = g16 @ w2 (9, 7) float16 matmul;
hb = (h16.float() * 1.7).bfloat16() (bfloat16 round trip of a value already rounded to float16);
s = hb.float().sum(dim=-1) + z16.float().amax(dim=-1) (9,) float32;
y = tanh(h + hb.float() * 0.25) * 1.5 - err * 10.0 (9, 21) float32.
Outputs of different dtypes in one tuple: y float32 (9, 21), z16 float16 (9, 7),
hb bfloat16 (9, 21), s float32 (9,)."""

import torch
import torch.nn as nn

N, DI, DH, DO = 9, 33, 21, 7


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w16 = nn.Parameter((torch.randn(DI, DH) / DI ** 0.5).half())
        self.b = nn.Parameter(torch.randn(DH) * 0.1)
        self.w2 = nn.Parameter((torch.randn(DH, DO) / DH ** 0.5).half())

    def forward(self, x):
        h = x @ self.w16.to(x.dtype) + self.b
        h16 = h.half()
        err = h - h16.float()
        g16 = torch.sigmoid(h16)
        z16 = g16 @ self.w2
        hb = (h16.float() * 1.7).bfloat16()
        s = hb.float().sum(dim=-1) + z16.float().amax(dim=-1)
        y = torch.tanh(h + hb.float() * 0.25) * 1.5 - err * 10.0
        return y, z16, hb, s


def get_inputs():
    return [torch.randn(N, DI)]


def get_init_inputs():
    return []

"""Data-movement chain feeding pointwise math on a step-sliced input: x = randn(5, 27, 19)
[:, ::2] (5, 14, 19) with strides (513, 38, 1) from get_inputs; y (5, 15, 14) contiguous.
a = x.flip(dims=(0, 2)); b = torch.roll(a, shifts=(2, -3), dims=(1, 2));
c = b.narrow(2, 1, 15) (5, 14, 15); d = c.transpose(1, 2).contiguous() (5, 15, 14);
e = d * w (14,) + torch.roll(y, 7) (flat roll, no dims) - y.flip(1);
f = torch.sigmoid(e) * torch.tanh(d.roll(-1, 0)).
Outputs: e (5, 15, 14), f (5, 15, 14) and the non-contiguous view f.transpose(0, 2)
(14, 15, 5) times 2."""

import torch
import torch.nn as nn

B, T, L = 5, 14, 19


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(T))

    def forward(self, x, y):
        a = x.flip(dims=(0, 2))
        b = torch.roll(a, shifts=(2, -3), dims=(1, 2))
        c = b.narrow(2, 1, 15)
        d = c.transpose(1, 2).contiguous()
        e = d * self.w + torch.roll(y, 7) - y.flip(1)
        f = torch.sigmoid(e) * torch.tanh(d.roll(-1, 0))
        return e, f, f.transpose(0, 2) * 2.0


def get_inputs():
    x = torch.randn(B, 2 * T - 1, L)[:, ::2]
    y = torch.randn(B, 15, T)
    return [x, y]


def get_init_inputs():
    return []

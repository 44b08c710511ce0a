"""Broadcasting pointwise ops with operands of different ranks and edge-case semantics:
torch.addcmul(x, t1, t2, value=-1.5) with a 4-D input x (3, 5, 7, 11), a 2-D (7, 1) t1 and a
1-D (11,) t2; torch.addcmul(t2, x, t1, value=0.5) where the 1-D input is the smallest operand
(output is broadcast up to 4-D); torch.xlogy(p, q) with p = relu(x) and q = 0 exactly where
x <= -0.5 (xlogy(0, 0) = 0, whereas p * log(q) is NaN) and q = |y| + 0.1 elsewhere;
torch.logaddexp(50 x, 50 y) and torch.logaddexp2(40 x, 40 y) (log(exp(a) + exp(b)) overflows
float32 there).
Inputs x, y: (3, 5, 7, 11) randn; outputs (3, 5, 7, 11) x 3 as a tuple (all finite)."""

import torch
import torch.nn as nn

B, C, H, W = 3, 5, 7, 11


class Model(nn.Module):
    def __init__(self, h, w):
        super().__init__()
        self.t1 = nn.Parameter(torch.randn(h, 1))
        self.t2 = nn.Parameter(torch.randn(w))

    def forward(self, x, y):
        a = torch.addcmul(x, self.t1, self.t2, value=-1.5)
        b = torch.addcmul(self.t2, x, self.t1, value=0.5)
        p = torch.relu(x)
        q = torch.where(x > -0.5, y.abs() + 0.1, torch.zeros_like(y))
        xl = torch.xlogy(p, q)
        lae = torch.logaddexp(50.0 * x, 50.0 * y) / 50.0 + torch.logaddexp2(40.0 * x, 40.0 * y) / 40.0
        return a - b, xl, lae


def get_inputs():
    return [torch.randn(B, C, H, W), torch.randn(B, C, H, W)]


def get_init_inputs():
    return [H, W]

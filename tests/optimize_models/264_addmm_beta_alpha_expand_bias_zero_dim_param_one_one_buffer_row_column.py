"""torch.addmm(bias, x, W, beta=0.5, alpha=-1.5) on x (37, 48), W (48, 37) (square result 37 x 37), expanded bias.
bias is a (37,) parameter expand()ed to (37, 37); result z scaled by a 0-dim parameter, plus a [1, 1] buffer,
minus a [rows, 1] column (row mean of x), times a full-size second input y (37, 37); also z.t() + c[:, None].
Outputs two (37, 37) tensors."""

import torch
import torch.nn as nn
import torch.nn.functional as F

R, K = 37, 48


class Model(nn.Module):
    def __init__(self, k, n):
        super().__init__()
        self.W = nn.Parameter(torch.randn(k, n) * 0.2)
        self.bias = nn.Parameter(torch.randn(n))
        self.s = nn.Parameter(torch.tensor(0.75))
        self.c = nn.Parameter(torch.randn(n))
        self.register_buffer("off", torch.full((1, 1), -0.3))

    def forward(self, x, y):
        n = self.W.shape[1]
        b = self.bias.expand(x.shape[0], n)
        z = torch.addmm(b, x, self.W, beta=0.5, alpha=-1.5)
        col = x.mean(dim=1, keepdim=True)
        o1 = (z * self.s + self.off - col) * y
        o2 = F.gelu(z.t() + self.c[:, None])
        return o1, o2


def get_inputs():
    return [torch.randn(R, K), torch.randn(R, R)]


def get_init_inputs():
    return [K, R]

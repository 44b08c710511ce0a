"""F.linear on slices of one packed (195, 48) weight parameter (like nn.MultiheadAttention's
in_proj_weight) and a packed (130,) bias: a = F.linear(x, w[:65], b[:65]), g = F.linear(x,
w[65:130], b[65:130]) (row slices, contiguous but offset), c = F.linear(x[:, :31], w[130:, :31])
(column slice: non-contiguous weight and input views, no bias); a * sigmoid(g) + 0.5 * tanh(c).
Input x: (37, 48); output (37, 65)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D, H, K = 37, 48, 65, 31


class Model(nn.Module):
    def __init__(self, d, h, k):
        super().__init__()
        self.h = h
        self.k = k
        self.w = nn.Parameter(torch.randn(3 * h, d) * d ** -0.5)
        self.b = nn.Parameter(torch.randn(2 * h) * 0.1)

    def forward(self, x):
        h, k = self.h, self.k
        a = F.linear(x, self.w[:h], self.b[:h])
        g = F.linear(x, self.w[h:2 * h], self.b[h:2 * h])
        c = F.linear(x[:, :k], self.w[2 * h:, :k])
        return a * torch.sigmoid(g) + 0.5 * torch.tanh(c)


def get_inputs():
    return [torch.randn(N, D)]


def get_init_inputs():
    return [D, H, K]

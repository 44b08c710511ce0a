"""Look-alike, broadcast operands mixed with a full-size one in the same chain:
y = torch.matmul(x, weight) + bias with a (40, 129) weight parameter, then (y + r) * scale + shift
where r is full-size (63, 129), scale a (1, 129) input (broadcast over rows) and shift a (63, 1)
input (broadcast over columns). Inputs x (63, 40), r (63, 129), scale (1, 129), shift (63, 1);
output (63, 129)."""

import torch
import torch.nn as nn

N, D_IN, D_OUT = 63, 40, 129


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(d_in, d_out) / d_in ** 0.5)
        self.bias = nn.Parameter(torch.randn(d_out) * 0.1)

    def forward(self, x, r, scale, shift):
        y = torch.matmul(x, self.weight) + self.bias
        return (y + r) * scale + shift


def get_inputs():
    return [
        torch.randn(N, D_IN),
        torch.randn(N, D_OUT),
        torch.randn(1, D_OUT),
        torch.randn(N, 1),
    ]


def get_init_inputs():
    return [D_IN, D_OUT]

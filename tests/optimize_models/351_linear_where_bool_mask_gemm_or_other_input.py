"""Select between the GEMM output and another full-size tensor: torch.where(mask, self.fc(x),
other) with nn.Linear (33 -> 65, with bias), mask a bool input (about 70% True) and other a float
input, both of the GEMM output's full shape.
Inputs x (77, 33), mask bool (77, 65), other (77, 65); output (77, 65)."""

import torch
import torch.nn as nn

N, D_IN, D_OUT = 77, 33, 65


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)

    def forward(self, x, mask, other):
        return torch.where(mask, self.fc(x), other)


def get_inputs():
    return [torch.randn(N, D_IN), torch.rand(N, D_OUT) < 0.7, torch.randn(N, D_OUT)]


def get_init_inputs():
    return [D_IN, D_OUT]

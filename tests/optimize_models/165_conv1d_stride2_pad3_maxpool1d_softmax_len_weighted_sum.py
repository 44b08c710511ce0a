"""nn.Conv1d (6 -> 10, kernel 5, stride 2, padding 3, bias) -> nn.MaxPool1d(kernel 3,
stride 2) -> softmax over the length dim -> weighted sum over channels of
softmax * features with a (C, 1) parameter.
Input (4, 6, 61); conv gives (4, 10, 32), pool (4, 10, 15); output (4, 15)."""

import torch
import torch.nn as nn

N, C_IN, C_OUT, L = 4, 6, 10, 61


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, kernel_size=5, stride=2, padding=3, bias=True)
        self.pool = nn.MaxPool1d(kernel_size=3, stride=2)
        self.w = nn.Parameter(torch.randn(c_out, 1))

    def forward(self, x):
        h = self.pool(self.conv(x))
        p = torch.softmax(h, dim=-1)
        return (p * h * self.w).sum(dim=1)


def get_inputs():
    return [torch.randn(N, C_IN, L)]


def get_init_inputs():
    return [C_IN, C_OUT]

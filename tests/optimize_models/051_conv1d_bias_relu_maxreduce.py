"""nn.Conv1d (stride 2, padding) -> extra per-channel bias -> ReLU -> max over the length
dim: a conv anchor with a reduction epilogue."""

import torch
import torch.nn as nn

N, C_IN, C_OUT, L, K = 8, 12, 29, 301, 5


class Model(nn.Module):
    def __init__(self, c_in, c_out, k):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, k, stride=2, padding=2)
        self.bias = nn.Parameter(torch.randn(c_out, 1) * 0.1)

    def forward(self, x):
        y = torch.relu(self.conv(x) + self.bias)
        return y, y.amax(dim=-1)


def get_inputs():
    return [torch.randn(N, C_IN, L)]


def get_init_inputs():
    return [C_IN, C_OUT, K]

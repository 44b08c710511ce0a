"""Full-size operands given as non-contiguous views: y = torch.matmul(x, weight) + bias with a
(48, 129) weight parameter, then y + rt.t() + 0.5 * s[:, ::2], where rt is a stored (129, 65)
input read transposed (strides (1, 65)) and s a (65, 257) input read with a column step of 2
(129 columns). Inputs x (65, 48), rt (129, 65), s (65, 257); output (65, 129)."""

import torch
import torch.nn as nn

N, D_IN, D_OUT = 65, 48, 129


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(d_in, d_out) / d_in ** 0.5)
        self.bias = nn.Parameter(torch.randn(d_out) * 0.1)

    def forward(self, x, rt, s):
        y = torch.matmul(x, self.weight) + self.bias
        return y + rt.t() + 0.5 * s[:, ::2]


def get_inputs():
    return [torch.randn(N, D_IN), torch.randn(D_OUT, N), torch.randn(N, 2 * D_OUT - 1)]


def get_init_inputs():
    return [D_IN, D_OUT]

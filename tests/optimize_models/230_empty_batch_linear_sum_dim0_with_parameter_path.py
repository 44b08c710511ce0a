"""A zero-sized batch alongside a non-empty path: x is (0, 13) (empty batch) and goes through
Linear(13 -> 11) + relu, giving a (0, 11) output; its sum over the empty dim 0 is an all-zero
(11,) vector that is added to a parameter path (softmax of a (11,) parameter times a non-empty
(5, 13) input's Linear output, tanh). Also x.shape[0] enters as a Python int divisor
(max(n, 1)). Inputs x: (0, 13), z: (5, 13); outputs (0, 11) and (5, 11) as a tuple."""

import torch
import torch.nn as nn

D_IN, D_OUT, B = 13, 11, 5


class Model(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)
        self.mix = nn.Parameter(torch.randn(d_out))

    def forward(self, x, z):
        e = torch.relu(self.fc(x)) * 2.0 - 0.5                 # (0, 11)
        e_sum = e.sum(dim=0) / max(x.shape[0], 1)              # (11,) zeros
        hz = self.fc(z)                                         # (5, 11)
        gate = torch.softmax(self.mix, dim=0)
        out = torch.tanh(hz * gate * 11.0 + e_sum) - hz.mean(dim=0, keepdim=True)
        return e, out


def get_inputs():
    return [torch.randn(0, D_IN), torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]

"""Diamond graph with in-place ops on a clone: h = tanh(x * scale + bias) is used four times
(sigmoid branch, row-sum branch keepdim=True, a clone that is mutated, and subtracted at the
end). The clone gets clamp_(-0.3, 0.6), mul_(2.0), add_(1.0) on its strided view
c[:, ::2, :] (every other row), and relu_(); none of this may change h. h is also returned.
Input x: (5, 29, 31) randn; scale and bias (31,) parameters; outputs (5, 29, 31) x 2."""

import torch
import torch.nn as nn

B, R, C = 5, 29, 31


class Model(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(cols) + 0.5)
        self.bias = nn.Parameter(torch.randn(cols) * 0.3)

    def forward(self, x):
        h = torch.tanh(x * self.scale + self.bias)
        a = torch.sigmoid(h)
        s = h.sum(dim=-1, keepdim=True)
        c = h.clone()
        c.clamp_(min=-0.3, max=0.6)
        c.mul_(2.0)
        c[:, ::2, :].add_(1.0)
        c.relu_()
        out = a * s + c - h
        return out, h


def get_inputs():
    return [torch.randn(B, R, C)]


def get_init_inputs():
    return [C]

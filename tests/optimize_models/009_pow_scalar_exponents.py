"""pow with assorted scalar exponents (2, 3, 0.5, -1.5, integer and float), via ** and
torch.pow, plus square."""

import torch
import torch.nn as nn

SHAPE = (9, 11, 101)


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, pos):
        a = x ** 2 + torch.pow(x, 3) * 0.1
        b = (pos + 0.1) ** 0.5 - torch.pow(pos + 1.0, -1.5)
        c = torch.square(x - 0.3)
        return a + b - 0.25 * c + 2.0 ** x.clamp(-3.0, 3.0)


def get_inputs():
    return [torch.randn(*SHAPE), torch.rand(*SHAPE)]


def get_init_inputs():
    return []

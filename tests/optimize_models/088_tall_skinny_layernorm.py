"""Tall and skinny: many rows (30011) of 3 features through LayerNorm(3), a tiny Linear
(3 -> 5) and softmax; exercises very short reductions and tiny GEMM widths."""

import torch
import torch.nn as nn

ROWS, D, OUT = 30011, 3, 5


class Model(nn.Module):
    def __init__(self, dim, out):
        super().__init__()
        self.ln = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, out)

    def forward(self, x):
        return torch.softmax(self.fc(self.ln(x)), dim=-1)


def get_inputs():
    return [torch.randn(ROWS, D)]


def get_init_inputs():
    return [D, OUT]

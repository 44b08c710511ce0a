"""nn.Linear (square, with bias) -> GELU -> Python scalar scale -> residual add of the input."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D = 127, 300


class Model(nn.Module):
    def __init__(self, dim, scale):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.scale = scale

    def forward(self, x):
        return x + F.gelu(self.fc(x)) * self.scale


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return [D, 0.5]

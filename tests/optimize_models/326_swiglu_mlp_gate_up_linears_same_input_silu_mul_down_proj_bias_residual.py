"""SwiGLU MLP: two nn.Linear layers (gate and up, 95 -> 255, with bias) applied to the same
input, F.silu(gate(x)) * up(x), then a third nn.Linear (down, 255 -> 95, with bias) and a
residual add of the input. Input x: (3, 37, 95); output (3, 37, 95)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HID = 3, 37, 95, 255


class Model(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.gate = nn.Linear(dim, hidden)
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)

    def forward(self, x):
        h = F.silu(self.gate(x)) * self.up(x)
        return x + self.down(h)


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, HID]

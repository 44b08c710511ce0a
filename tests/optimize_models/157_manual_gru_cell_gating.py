"""Hand-written GRU cell gating (no nn.GRUCell): z = sigmoid(x @ Wz + h @ Uz + bz),
r = sigmoid(x @ Wr + h @ Ur + br), n = tanh(x @ Wn + r * (h @ Un) + bn),
h_new = (1 - z) * n + z * h; parameters are torch.randn * 0.1 made in __init__.
Inputs x (11, 23) and h (11, 31); output (11, 31)."""

import torch
import torch.nn as nn

B, IN, HID = 11, 23, 31


class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.Wz = nn.Parameter(torch.randn(input_size, hidden_size) * 0.1)
        self.Uz = nn.Parameter(torch.randn(hidden_size, hidden_size) * 0.1)
        self.bz = nn.Parameter(torch.randn(hidden_size) * 0.1)
        self.Wr = nn.Parameter(torch.randn(input_size, hidden_size) * 0.1)
        self.Ur = nn.Parameter(torch.randn(hidden_size, hidden_size) * 0.1)
        self.br = nn.Parameter(torch.randn(hidden_size) * 0.1)
        self.Wn = nn.Parameter(torch.randn(input_size, hidden_size) * 0.1)
        self.Un = nn.Parameter(torch.randn(hidden_size, hidden_size) * 0.1)
        self.bn = nn.Parameter(torch.randn(hidden_size) * 0.1)

    def forward(self, x, h):
        z = torch.sigmoid(x @ self.Wz + h @ self.Uz + self.bz)
        r = torch.sigmoid(x @ self.Wr + h @ self.Ur + self.br)
        n = torch.tanh(x @ self.Wn + r * (h @ self.Un) + self.bn)
        return (1 - z) * n + z * h


def get_inputs():
    return [torch.randn(B, IN), torch.randn(B, HID)]


def get_init_inputs():
    return [IN, HID]

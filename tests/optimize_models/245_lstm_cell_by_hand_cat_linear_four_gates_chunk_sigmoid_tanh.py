"""LSTM cell written by hand: one Linear on cat([x, h], dim=1) to the 4 gates, chunk(4, dim=1)
into i, f, g, o; sigmoid(i), sigmoid(f), tanh(g), sigmoid(o); c' = f * c + i * g;
h' = o * tanh(c').
Inputs x: (5, 23), h: (5, 31), c: (5, 31); outputs (h', c'), each (5, 31), as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D_IN, D_H = 5, 23, 31


class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.gates = nn.Linear(input_size + hidden_size, 4 * hidden_size)

    def forward(self, x, h, c):
        g = self.gates(torch.cat([x, h], dim=1))
        i, f, gg, o = g.chunk(4, dim=1)
        i = torch.sigmoid(i)
        f = torch.sigmoid(f)
        gg = torch.tanh(gg)
        o = torch.sigmoid(o)
        c_next = f * c + i * gg
        h_next = o * torch.tanh(c_next)
        return h_next, c_next


def get_inputs():
    return [torch.randn(B, D_IN), torch.randn(B, D_H), torch.randn(B, D_H)]


def get_init_inputs():
    return [D_IN, D_H]

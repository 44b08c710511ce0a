"""Hand-written LSTM layer unrolled over 3 timesteps in forward (a static Python loop over
the sequence length of a batch-first input): per step gates = nn.Linear(23 -> 4 * 37)(x[:,
t]) + nn.Linear(37 -> 4 * 37, no bias)(h), gates.chunk(4, dim=-1) into i, f, g, o;
i, f, o sigmoid, g tanh, c = f * c + i * g, h = o * tanh(c); outputs torch.stack(dim=1).
Inputs x (5, 3, 23), h0 (5, 37), c0 (5, 37); outputs (5, 3, 37) sequence, final h (5, 37)
and final c (5, 37)."""

import torch
import torch.nn as nn

B, T, INPUT_SIZE, HIDDEN = 5, 3, 23, 37


class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.ih = nn.Linear(input_size, 4 * hidden_size)
        self.hh = nn.Linear(hidden_size, 4 * hidden_size, bias=False)

    def forward(self, x, h0, c0):
        h, c = h0, c0
        outputs = []
        for t in range(x.size(1)):
            gates = self.ih(x[:, t]) + self.hh(h)
            i, f, g, o = gates.chunk(4, dim=-1)
            i = torch.sigmoid(i)
            f = torch.sigmoid(f)
            g = torch.tanh(g)
            o = torch.sigmoid(o)
            c = f * c + i * g
            h = o * torch.tanh(c)
            outputs.append(h)
        return torch.stack(outputs, dim=1), h, c


def get_inputs():
    return [torch.randn(B, T, INPUT_SIZE), torch.randn(B, HIDDEN), torch.randn(B, HIDDEN)]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN]

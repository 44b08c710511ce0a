"""LSTM with a projection (LSTMP) written by hand, unrolled over 4 time steps.
x = randn(2, 4, 9). h0 = x.new_zeros(2, 7), c0 = x.new_zeros(2, 13) created in forward.
Each step: gates = gate(cat([x[:, t], h], -1)) with one fused Linear 9 + 7 -> 4 * 13 (forget
slice of the bias shifted by +1); (i, f, g, o) = gates.chunk(4, -1);
c = sigmoid(f) * c + sigmoid(i) * tanh(g); h = proj(sigmoid(o) * tanh(c)) with proj a
Linear 13 -> 7 without bias.
Outputs: hs = stack of h (2, 4, 7) and the final cell state c (2, 13)."""

import torch
import torch.nn as nn

B, T, I, H, P = 2, 4, 9, 13, 7


class Model(nn.Module):
    def __init__(self, input_size, hidden_size, proj_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.proj_size = proj_size
        self.gate = nn.Linear(input_size + proj_size, 4 * hidden_size)
        with torch.no_grad():
            self.gate.bias[hidden_size:2 * hidden_size] += 1.0
        self.proj = nn.Linear(hidden_size, proj_size, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        h = x.new_zeros(b, self.proj_size)
        c = x.new_zeros(b, self.hidden_size)
        hs = []
        for step in range(t):
            gates = self.gate(torch.cat([x[:, step], h], dim=-1))
            i, f, g, o = gates.chunk(4, dim=-1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = self.proj(torch.sigmoid(o) * torch.tanh(c))
            hs.append(h)
        return torch.stack(hs, dim=1), c


def get_inputs():
    return [torch.randn(B, T, I)]


def get_init_inputs():
    return [I, H, P]

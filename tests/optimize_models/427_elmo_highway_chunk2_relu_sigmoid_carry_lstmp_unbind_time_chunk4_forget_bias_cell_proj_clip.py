"""ELMo-style encoder: highway layers then an LSTM with projection (LSTMP), unrolled by hand.
Input x = randn(12, 3, 21)[::2] (6, 3, 21), a time-major step-sliced view. Two highway layers:
proj = Linear 21 -> 42 (h), nonlinear, gate = proj.chunk(2, dim=-1), gate = sigmoid(gate),
h = gate * h + (1 - gate) * relu(nonlinear). LSTMP: xg = Linear 21 -> 104 (h) for all steps
(6, 3, 104), then for xt in xg.unbind(0): gates = xt + no-bias Linear 17 -> 104 (hp),
i, f, g, o = gates.chunk(4, 1) (26 each), c = sigmoid(f + 1) * c + sigmoid(i) * tanh(g),
c = c.clamp(-3, 3) (cell clip), hp = no-bias Linear 26 -> 17 (sigmoid(o) * tanh(c)).clamp(-3, 3)
(projection clip); h0 / c0 zero. Outputs: projected sequence stack(dim=0) (6, 3, 17), final
cell c (3, 26) and the highway output (6, 3, 21)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

T, B, D, H, P = 6, 3, 21, 26, 17


class Model(nn.Module):
    def __init__(self, input_size, hidden_size, proj_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.proj_size = proj_size
        self.highways = nn.ModuleList([nn.Linear(input_size, 2 * input_size) for _ in range(2)])
        self.w_x = nn.Linear(input_size, 4 * hidden_size)
        self.w_h = nn.Linear(proj_size, 4 * hidden_size, bias=False)
        self.proj = nn.Linear(hidden_size, proj_size, bias=False)

    def forward(self, x):
        h = x
        for layer in self.highways:
            nonlinear, gate = layer(h).chunk(2, dim=-1)
            gate = torch.sigmoid(gate)
            h = gate * h + (1 - gate) * F.relu(nonlinear)
        xg = self.w_x(h)
        b = x.shape[1]
        hp = x.new_zeros(b, self.proj_size)
        c = x.new_zeros(b, self.hidden_size)
        outs = []
        for xt in xg.unbind(0):
            gates = xt + self.w_h(hp)
            i, f, g, o = gates.chunk(4, 1)
            c = torch.sigmoid(f + 1.0) * c + torch.sigmoid(i) * torch.tanh(g)
            c = c.clamp(-3.0, 3.0)
            hp = self.proj(torch.sigmoid(o) * torch.tanh(c)).clamp(-3.0, 3.0)
            outs.append(hp)
        return torch.stack(outs, dim=0), c, h


def get_inputs():
    return [torch.randn(2 * T, B, D)[::2]]


def get_init_inputs():
    return [D, H, P]

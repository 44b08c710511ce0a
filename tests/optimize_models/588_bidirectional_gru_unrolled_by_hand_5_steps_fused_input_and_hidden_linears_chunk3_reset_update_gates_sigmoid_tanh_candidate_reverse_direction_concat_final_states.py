"""Bidirectional GRU written by hand, unrolled over 5 time steps in both directions.
x = randn(3, 5, 7), h0 = randn(2, 3, 11) (one initial state per direction).
Per direction d: gi = w_ih[d](x) for all steps at once (Linear 7 -> 33), then for each step
gh = w_hh[d](h) (Linear 11 -> 33); (i_r, i_z, i_n) = gi[:, t].chunk(3, -1),
(h_r, h_z, h_n) = gh.chunk(3, -1); r = sigmoid(i_r + h_r); z = sigmoid(i_z + h_z);
n = tanh(i_n + r * h_n); h = (1 - z) * n + z * h.
Forward direction walks t = 0..4, reverse direction t = 4..0 (its outputs are stored at t).
Outputs: out = cat([fwd, bwd], -1) (3, 5, 22) and the final states stack (2, 3, 11)."""

import torch
import torch.nn as nn

B, T, I, H = 3, 5, 7, 11


class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.w_ih = nn.ModuleList([nn.Linear(input_size, 3 * hidden_size) for _ in range(2)])
        self.w_hh = nn.ModuleList([nn.Linear(hidden_size, 3 * hidden_size) for _ in range(2)])

    def direction(self, x, h, d, steps):
        gi_all = self.w_ih[d](x)
        outs = [None] * x.shape[1]
        for t in steps:
            gh = self.w_hh[d](h)
            i_r, i_z, i_n = gi_all[:, t].chunk(3, dim=-1)
            h_r, h_z, h_n = gh.chunk(3, dim=-1)
            r = torch.sigmoid(i_r + h_r)
            z = torch.sigmoid(i_z + h_z)
            n = torch.tanh(i_n + r * h_n)
            h = (1.0 - z) * n + z * h
            outs[t] = h
        return torch.stack(outs, dim=1), h

    def forward(self, x, h0):
        t = x.shape[1]
        fwd, hf = self.direction(x, h0[0], 0, range(t))
        bwd, hb = self.direction(x, h0[1], 1, range(t - 1, -1, -1))
        return torch.cat([fwd, bwd], dim=-1), torch.stack([hf, hb], dim=0)


def get_inputs():
    return [torch.randn(B, T, I), torch.randn(2, B, H)]


def get_init_inputs():
    return [I, H]

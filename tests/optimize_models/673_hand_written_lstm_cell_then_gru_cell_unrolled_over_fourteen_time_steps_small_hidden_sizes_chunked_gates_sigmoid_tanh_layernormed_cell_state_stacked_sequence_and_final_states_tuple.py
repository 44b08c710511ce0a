"""Two stacked recurrent layers written by hand and unrolled over T = 14 time steps (input (B, T, I)
sliced with x[:, t]). Layer 1: LSTM cell with a fused gate projection F.linear(x_t, W_ih, b) +
F.linear(h, W_hh), gates by chunk(4) (sigmoid input/forget/output, tanh candidate), forget-gate bias
+1, layer norm of the new cell state before tanh(c) in the output. Layer 2: GRU cell on the LSTM
output with reset gate applied to the hidden projection (r * (W_hn h + b_hn)), update
h = (1 - u) * n + u * h. Initial states from a learned vector expanded over the batch. Outputs:
GRU output sequence stacked (B, T, H2), final LSTM h and c (B, H1), final GRU h (B, H2)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, I, H1, H2 = 5, 14, 11, 19, 13


class Model(nn.Module):
    def __init__(self, inp, h1, h2, steps):
        super().__init__()
        self.w_ih1 = nn.Parameter(torch.randn(4 * h1, inp) / inp ** 0.5)
        self.w_hh1 = nn.Parameter(torch.randn(4 * h1, h1) / h1 ** 0.5)
        self.b1 = nn.Parameter(torch.randn(4 * h1) * 0.1)
        self.ln_c = nn.LayerNorm(h1)
        self.w_ih2 = nn.Parameter(torch.randn(3 * h2, h1) / h1 ** 0.5)
        self.w_hh2 = nn.Parameter(torch.randn(3 * h2, h2) / h2 ** 0.5)
        self.b_ih2 = nn.Parameter(torch.randn(3 * h2) * 0.1)
        self.b_hh2 = nn.Parameter(torch.randn(3 * h2) * 0.1)
        self.h0_1 = nn.Parameter(torch.randn(h1) * 0.1)
        self.c0_1 = nn.Parameter(torch.randn(h1) * 0.1)
        self.h0_2 = nn.Parameter(torch.randn(h2) * 0.1)
        self.steps = steps

    def forward(self, x):
        bsz = x.shape[0]
        h1 = self.h0_1.unsqueeze(0).expand(bsz, -1)
        c1 = self.c0_1.unsqueeze(0).expand(bsz, -1)
        h2 = self.h0_2.unsqueeze(0).expand(bsz, -1)
        outs = []
        for t in range(self.steps):
            g = F.linear(x[:, t], self.w_ih1, self.b1) + F.linear(h1, self.w_hh1)
            i, f, gg, o = g.chunk(4, dim=1)
            c1 = torch.sigmoid(f + 1.0) * c1 + torch.sigmoid(i) * torch.tanh(gg)
            h1 = torch.sigmoid(o) * torch.tanh(self.ln_c(c1))
            gi = F.linear(h1, self.w_ih2, self.b_ih2)
            gh = F.linear(h2, self.w_hh2, self.b_hh2)
            ir, iz, in_ = gi.chunk(3, dim=1)
            hr, hz, hn = gh.chunk(3, dim=1)
            r = torch.sigmoid(ir + hr)
            u = torch.sigmoid(iz + hz)
            n = torch.tanh(in_ + r * hn)
            h2 = (1 - u) * n + u * h2
            outs.append(h2)
        return torch.stack(outs, dim=1), h1, c1, h2


def get_inputs():
    return [torch.randn(B, T, I)]


def get_init_inputs():
    return [I, H1, H2, T]

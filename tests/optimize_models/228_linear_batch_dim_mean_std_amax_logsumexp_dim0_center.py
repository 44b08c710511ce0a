"""Linear followed by reductions over the batch dim (dim 0): h = Linear(19 -> 23)(x) on a
(37, 19) batch; per-feature h.mean(dim=0), h.std(dim=0, unbiased=True), h.amax(dim=0) and
torch.logsumexp(h, dim=-2) (dim 0 by a negative index). Features are standardised across the
batch, gated by sigmoid of (logsumexp - amax) (a (23,) vector broadcast over rows), and a second
Linear(23 -> 11) follows; the (23,) batch mean is returned too.
Input x: (37, 19); outputs (37, 11) and (23,) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_HID, D_OUT = 37, 19, 23, 11


class Model(nn.Module):
    def __init__(self, d_in, d_hid, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hid)
        self.fc2 = nn.Linear(d_hid, d_out)

    def forward(self, x):
        h = self.fc1(x)
        mu = h.mean(dim=0)
        sd = h.std(dim=0)
        mx = h.amax(dim=0)
        lse = torch.logsumexp(h, dim=-2)
        z = (h - mu) / (sd + 1e-4)
        z = z * torch.sigmoid(lse - mx) + 0.1 * mx
        return self.fc2(torch.tanh(z)), mu


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_HID, D_OUT]

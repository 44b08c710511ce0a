"""Long-row softmax / log_softmax with a temperature and masking (rows of odd length, a few
thousand elements: one row does not fit one small block).
x = randn(5, 3001) * 3, mask bool (5, 3001) (about 93% True; column 0 forced True so no row is
fully masked); temperature 0.7 from the constructor (Python float).
z = x / temperature;
p = softmax(z.masked_fill(~mask, -inf), dim=-1) (masked entries are exact zeros);
lp = log_softmax(z.masked_fill(~mask, -1e4), dim=-1) (finite fill: masked entries near -1e4);
ent = -(p * lp).sum(-1) (5,) (masked entries contribute 0 * -1e4 = 0);
top = p.amax(dim=-1) (5,).
y = randn(3, 7, 2999): per-row learned temperature t = softplus(theta) + 0.5 with theta (7, 1)
broadcast over batch and columns; q = softmax(y / t - 0.25 * y.mean(-1, keepdim=True), dim=-1);
out2 = q * 2999 - 1 (centred around 0).
Outputs: p (5, 3001), lp (5, 3001), ent (5,), top (5,), out2 (3, 7, 2999)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, temperature, rows2):
        super().__init__()
        self.temperature = temperature
        self.theta = nn.Parameter(0.5 * torch.randn(rows2, 1))

    def forward(self, x, mask, y):
        z = x / self.temperature
        p = torch.softmax(z.masked_fill(~mask, float("-inf")), dim=-1)
        lp = F.log_softmax(z.masked_fill(~mask, -1e4), dim=-1)
        ent = -(p * lp).sum(dim=-1)
        top = p.amax(dim=-1)
        t = F.softplus(self.theta) + 0.5
        q = torch.softmax(y / t - 0.25 * y.mean(dim=-1, keepdim=True), dim=-1)
        out2 = q * y.shape[-1] - 1.0
        return p, lp, ent, top, out2


def get_inputs():
    x = torch.randn(5, 3001) * 3.0
    mask = torch.randn(5, 3001) > -1.5
    mask[:, 0] = True
    y = torch.randn(3, 7, 2999)
    return [x, mask, y]


def get_init_inputs():
    return [0.7, 7]

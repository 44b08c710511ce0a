"""Audio-style pointwise chain: pre-emphasis, peak normalisation, clipping, mu-law companding.
x = 3 * randn(3, 4, 101).
Pre-emphasis y[t] = x[t] - 0.97 x[t - 1] with y[0] = x[0]:
cat([x[..., :1], x[..., 1:] - 0.97 * x[..., :-1]], -1).
Peak normalisation per channel: y / amax(|y|, -1, keepdim).clamp_min(1e-5); and per signal:
y / amax(|y|, dim=(1, 2), keepdim).clamp_min(1e-5).
Clipping: c = hardtanh(1.4 * per-channel-normalised, -0.9, 0.9).
mu-law (mu = 255): enc = sign(c) * log1p(mu |c|) / log1p(mu);
dec = sign(enc) * ((1 + mu) ** |enc| - 1) / mu (scalar ** tensor).
Outputs: enc (3, 4, 101), dec (3, 4, 101), per-signal normalised y (3, 4, 101) and the max
reconstruction error amax(|dec - c|, -1) (3, 4)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, L = 3, 4, 101


class Model(nn.Module):
    def __init__(self, coef, mu, gain):
        super().__init__()
        self.coef = coef
        self.mu = mu
        self.gain = gain

    def forward(self, x):
        y = torch.cat([x[..., :1], x[..., 1:] - self.coef * x[..., :-1]], dim=-1)
        yc = y / y.abs().amax(dim=-1, keepdim=True).clamp_min(1e-5)
        ys = y / y.abs().amax(dim=(1, 2), keepdim=True).clamp_min(1e-5)
        c = F.hardtanh(self.gain * yc, -0.9, 0.9)
        mu = self.mu
        enc = torch.sign(c) * torch.log1p(mu * c.abs()) / math.log1p(mu)
        dec = torch.sign(enc) * ((1.0 + mu) ** enc.abs() - 1.0) / mu
        return enc, dec, ys, (dec - c).abs().amax(dim=-1)


def get_inputs():
    return [3.0 * torch.randn(B, C, L)]


def get_init_inputs():
    return [0.97, 255.0, 1.4]

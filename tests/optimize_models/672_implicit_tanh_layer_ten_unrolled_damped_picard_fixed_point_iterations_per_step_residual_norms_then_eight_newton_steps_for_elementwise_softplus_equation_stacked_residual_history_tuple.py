"""Implicit (deep-equilibrium style) tanh layer solved by unrolled iterations. The fixed point
z = tanh(z W^T + x U^T + b) is approached from z0 = 0 by 10 damped Picard steps
z <- (1 - a) z + a tanh(z W^T + x U^T + b), with a = sigmoid(raw_a) and W rescaled to Frobenius norm
0.9 so the map contracts; the per-sample residual norm ||tanh(...) - z|| of every step is kept.
Then y solving y + c * softplus(y) = s (s = z V^T, c = softplus(raw_c) > 0 per feature) elementwise
by 8 unrolled Newton steps y <- y - g / (1 + c sigmoid(y)) from y0 = s / (1 + c / 2), with the
Newton residual max-abs per sample after every step. Outputs: z (B, D), y (B, E), Picard residual
history (B, 10), Newton residual history (B, 8)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, DIN, D, E = 23, 17, 41, 29


class Model(nn.Module):
    def __init__(self, din, d, e, picard_steps, newton_steps):
        super().__init__()
        self.W = nn.Parameter(torch.randn(d, d) / d ** 0.5)
        self.U = nn.Parameter(torch.randn(d, din) / din ** 0.5)
        self.b = nn.Parameter(torch.randn(d) * 0.1)
        self.V = nn.Parameter(torch.randn(e, d) / d ** 0.5)
        self.raw_a = nn.Parameter(torch.tensor(0.4))
        self.raw_c = nn.Parameter(torch.randn(e) * 0.5)
        self.picard_steps = picard_steps
        self.newton_steps = newton_steps

    def forward(self, x):
        W = 0.9 * self.W / torch.linalg.vector_norm(self.W)
        inj = F.linear(x, self.U, self.b)
        a = torch.sigmoid(self.raw_a)
        z = torch.zeros_like(inj)
        hist = []
        for _ in range(self.picard_steps):
            fz = torch.tanh(z @ W.T + inj)
            hist.append(torch.linalg.vector_norm(fz - z, dim=1))
            z = (1 - a) * z + a * fz
        s = F.linear(z, self.V)
        c = F.softplus(self.raw_c)
        y = s / (1 + 0.5 * c)
        nhist = []
        for _ in range(self.newton_steps):
            g = y + c * F.softplus(y) - s
            dg = 1 + c * torch.sigmoid(y)
            y = y - g / dg
            nhist.append((y + c * F.softplus(y) - s).abs().amax(dim=1))
        return z, y, torch.stack(hist, dim=1), torch.stack(nhist, dim=1)


def get_inputs():
    return [torch.randn(B, DIN)]


def get_init_inputs():
    return [DIN, D, E, 10, 8]

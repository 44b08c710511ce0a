"""Exponential moving averages computed in closed form from a fixed per-channel decay vector.
x = randn(2, 4, 37). Decays a = (0.8, 0.85, 0.9, 0.95) (buffer (4, 1)); buffers
log_a = log(a) and t = arange(37).
EMA from zero: y_t = sum_{s<=t} (1 - a) a^(t-s) x_s computed as
exp(t * log_a) * cumsum((1 - a) * x * exp(-t * log_a), -1) (a^-t is at most about 3.1e3).
Bias-corrected EMA: y_t / (1 - a^(t+1)) with a^(t+1) = exp((t + 1) * log_a).
Log-space EMA of the energy e = x^2 + 1e-3:
log_ema = logcumsumexp(log(1 - a) + log(e) - t * log_a, -1) + t * log_a.
Outputs: ema (2, 4, 37), bias-corrected ema (2, 4, 37), log_ema (2, 4, 37)."""

import torch
import torch.nn as nn

B, C, L = 2, 4, 37


class Model(nn.Module):
    def __init__(self, decays, length):
        super().__init__()
        a = torch.tensor(decays, dtype=torch.float32)[:, None]
        self.register_buffer("a", a)
        self.register_buffer("log_a", torch.log(a))
        self.register_buffer("t", torch.arange(length, dtype=torch.float32))

    def forward(self, x):
        tl = self.t * self.log_a
        ema = torch.exp(tl) * torch.cumsum((1.0 - self.a) * x * torch.exp(-tl), dim=-1)
        ema_bc = ema / (1.0 - torch.exp(tl + self.log_a))
        e = x * x + 1e-3
        log_ema = torch.logcumsumexp(torch.log(1.0 - self.a) + torch.log(e) - tl, dim=-1) + tl
        return ema, ema_bc, log_ema


def get_inputs():
    return [torch.randn(B, C, L)]


def get_init_inputs():
    return [(0.8, 0.85, 0.9, 0.95), L]

"""Quantisation error statistics: fake-quant a (C, N) tensor at 8 and 4 bits, per tensor and per
channel (row amax); for each: mse, max abs error, SQNR = 10 * log10(sum x^2 / sum (x - q)^2 clamp_min),
per-channel SQNR (dim 1). Outputs: stacked global stats (4, 3) and per-channel SQNR (4, C)."""

import torch
import torch.nn as nn


def fq(x, bits, per_channel):
    qmax = 2 ** (bits - 1) - 1
    amax = x.abs().amax(dim=1, keepdim=True) if per_channel else x.abs().amax()
    s = (amax / qmax).clamp_min(1e-12)
    return torch.clamp(torch.round(x / s), -qmax - 1, qmax) * s


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        stats, chan = [], []
        for bits in (8, 4):
            for pc in (False, True):
                q = fq(x, bits, pc)
                err = x - q
                mse = err.pow(2).mean()
                mae = err.abs().max()
                sqnr = 10.0 * torch.log10(x.pow(2).sum() / err.pow(2).sum().clamp_min(1e-20))
                stats.append(torch.stack([mse, mae, sqnr]))
                cs = 10.0 * torch.log10(x.pow(2).sum(dim=1) / err.pow(2).sum(dim=1).clamp_min(1e-20))
                chan.append(cs)
        return torch.stack(stats), torch.stack(chan)


def get_inputs():
    x = torch.randn(11, 63) * torch.linspace(0.05, 3.0, 11).unsqueeze(1)
    return [x]


def get_init_inputs():
    return []

"""A forward that mutates a registered buffer in place (exponential moving average of the
batch mean) and uses in-place ops on intermediates (relu_, mul_, add_)."""

import torch
import torch.nn as nn

B, D = 150, 77


class Model(nn.Module):
    def __init__(self, dim, momentum):
        super().__init__()
        self.register_buffer("ema", torch.zeros(dim))
        self.momentum = momentum

    def forward(self, x):
        batch_mean = x.mean(dim=0)
        with torch.no_grad():
            self.ema.mul_(1.0 - self.momentum).add_(batch_mean, alpha=self.momentum)
        y = x - batch_mean
        y = y.mul(1.5)
        y.relu_()
        y.add_(x, alpha=0.5)
        return y + self.ema


def get_inputs():
    return [torch.randn(B, D) + 0.3]


def get_init_inputs():
    return [D, 0.1]

"""0-dim learnable parameters and a 0-dim buffer as scalar tensor operands around
sigmoid and tanh."""

import torch
import torch.nn as nn

B, D = 37, 1000


class Model(nn.Module):
    def __init__(self, alpha, beta):
        super().__init__()
        self.alpha = nn.Parameter(torch.tensor(alpha))
        self.beta = nn.Parameter(torch.tensor(beta))
        self.register_buffer("offset", torch.tensor(0.25))

    def forward(self, x):
        s = torch.sigmoid(self.alpha * x + self.beta)
        t = torch.tanh(x - self.offset)
        return s * t + self.offset


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return [0.8, -0.3]

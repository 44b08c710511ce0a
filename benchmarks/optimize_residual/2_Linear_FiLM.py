import torch
import torch.nn as nn


class Model(nn.Module):
    """Feature-wise modulation of a projection: Linear(h) * gamma + beta."""

    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, h, gamma, beta):
        return self.proj(h) * gamma + beta


tokens = 4096
hidden = 4096


def get_inputs():
    return [torch.randn(tokens, hidden), torch.randn(tokens, hidden), torch.randn(tokens, hidden)]


def get_init_inputs():
    return [hidden]

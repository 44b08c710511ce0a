import torch
import torch.nn as nn


class Model(nn.Module):
    """An Elman RNN step: h' = tanh(W_ih x + b_ih + W_hh h + b_hh)."""

    def __init__(self, input_size, hidden):
        super().__init__()
        self.ih = nn.Linear(input_size, hidden)
        self.hh = nn.Linear(hidden, hidden)

    def forward(self, x, h):
        return torch.tanh(self.ih(x) + self.hh(h))


tokens = 4096
input_size = 4096
hidden = 4096


def get_inputs():
    return [torch.randn(tokens, input_size), torch.randn(tokens, hidden)]


def get_init_inputs():
    return [input_size, hidden]

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A LLaMA feed-forward block: x + down(silu(gate(x)) * up(x)), no biases."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return x + self.down(F.silu(self.gate(x)) * self.up(x))


tokens = 4096
dim = 4096
hidden = 11008


def get_inputs():
    return [torch.randn(tokens, dim)]


def get_init_inputs():
    return [dim, hidden]

import torch
import torch.nn as nn


class Model(nn.Module):
    """Inclusive prefix sum (cumsum) along a dimension."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim)


batch_size = 4096
length = 8192
scan_dim = 1


def get_inputs():
    x = torch.randn(batch_size, length)
    return [x]


def get_init_inputs():
    return [scan_dim]

import torch
import torch.nn as nn


class Model(nn.Module):
    """y = mean(|x|, dim=1) for a 3-D input (B, N, C) -> (B, C)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mean(torch.abs(x), dim=1)


BATCH = 64
REDUCE = 3001
CHANNELS = 129


def get_inputs():
    return [torch.randn(BATCH, REDUCE, CHANNELS)]


def get_init_inputs():
    return []

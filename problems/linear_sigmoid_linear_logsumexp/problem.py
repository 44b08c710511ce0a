"""Linear(2048 -> 4096) -> Sigmoid -> Linear(4096 -> 1024) -> LogSumExp(dim=1), batch 16384: the
reference material's headline model."""

import os

import torch
import torch.nn as nn

# The reference material's size; small for CPU runs (`kernelwright run` sets this).
SMALL = os.environ.get("KERNELWRIGHT_PROBLEM_SIZE") == "small"
BATCH, IN, HIDDEN, OUT = (64, 256, 512, 128) if SMALL else (16384, 2048, 4096, 1024)


class Model(nn.Module):
    def __init__(self, in_features, hidden, out_features):
        super().__init__()
        self.linear1 = nn.Linear(in_features, hidden)
        self.linear2 = nn.Linear(hidden, out_features)

    def forward(self, x):
        x = torch.sigmoid(self.linear1(x))
        return torch.logsumexp(self.linear2(x), dim=1)


def get_inputs():
    return [torch.randn(BATCH, IN)]


def get_init_inputs():
    return [IN, HIDDEN, OUT]

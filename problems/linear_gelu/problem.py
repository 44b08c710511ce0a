"""Linear + bias + GELU, a transformer MLP's first half: batch 8192, 4096 -> 16384."""

import os

import torch
import torch.nn as nn
import torch.nn.functional as F

SMALL = os.environ.get("KERNELWRIGHT_PROBLEM_SIZE") == "small"
BATCH, IN, OUT = (64, 256, 512) if SMALL else (8192, 4096, 16384)


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.gelu(self.fc(x))


def get_inputs():
    return [torch.randn(BATCH, IN)]


def get_init_inputs():
    return [IN, OUT]

"""MLP: Linear -> ReLU -> Linear, batch 8192, 4096 -> 8192 -> 4096."""

import os

import torch
import torch.nn as nn

SMALL = os.environ.get("KERNELWRIGHT_PROBLEM_SIZE") == "small"
BATCH, IN, HIDDEN = (64, 256, 512) if SMALL else (8192, 4096, 8192)


class Model(nn.Module):
    def __init__(self, in_features, hidden):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.fc2 = nn.Linear(hidden, in_features)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def get_inputs():
    return [torch.randn(BATCH, IN)]


def get_init_inputs():
    return [IN, HIDDEN]

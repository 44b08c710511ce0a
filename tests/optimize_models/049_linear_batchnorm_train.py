"""nn.Linear -> BatchNorm1d (train mode) -> Swish with a learnable per-feature beta ->
Linear: a small training-style MLP block."""

import torch
import torch.nn as nn

B, IN, HID, OUT = 120, 75, 140, 33


class Model(nn.Module):
    def __init__(self, in_features, hidden, out_features):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.beta = nn.Parameter(torch.ones(hidden))
        self.fc2 = nn.Linear(hidden, out_features)

    def forward(self, x):
        h = self.bn(self.fc1(x))
        h = h * torch.sigmoid(self.beta * h)
        return self.fc2(h)


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, HID, OUT]

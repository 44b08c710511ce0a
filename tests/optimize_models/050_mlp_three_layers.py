"""Three-layer MLP on (B, T, D) tokens: Linear -> GELU(tanh) -> Linear -> ReLU -> Linear,
with a residual around the whole block."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, H = 2, 77, 160, 420


class Model(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden // 2)
        self.fc3 = nn.Linear(hidden // 2, dim)

    def forward(self, x):
        h = F.gelu(self.fc1(x), approximate="tanh")
        h = torch.relu(self.fc2(h))
        return x + self.fc3(h)


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, H]

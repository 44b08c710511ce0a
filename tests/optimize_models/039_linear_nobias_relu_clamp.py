"""nn.Linear without bias on a 3-D input (B, T, in), then an added bias vector, ReLU and
clamp_max."""

import torch
import torch.nn as nn

B, T, IN, OUT = 3, 45, 121, 199


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features, bias=False)
        self.extra = nn.Parameter(torch.randn(out_features) * 0.1)

    def forward(self, x):
        y = torch.relu(self.fc(x) + self.extra)
        return torch.clamp_max(y, 1.5)


def get_inputs():
    return [torch.randn(B, T, IN)]


def get_init_inputs():
    return [IN, OUT]

"""Tensors forward builds from literals (a 0-dim clamp bound on the input's device, a per-channel
table, a CPU scalar), a plain tensor attribute that is neither parameter nor buffer, and a view
of a convolution's output taken across its channel and spatial dims. Input (3, 5, 9, 7)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(5, 6, 3)
        self.gain = torch.linspace(0.5, 1.5, 6).view(6, 1, 1)  # not a buffer: export lifts it as a constant

    def forward(self, x):
        y = self.conv(x) * self.gain
        y = torch.minimum(y, torch.tensor(0.75, device=y.device))
        table = torch.tensor([1.5, -2.0, 0.5, 1.0, 2.0, -1.0], device=y.device)
        y = y * table.view(6, 1, 1) + torch.tensor(0.125)
        flat = y.view(y.shape[0], 3, -1)  # groups of two channels, flattened with their pixels
        return flat - flat.mean(dim=2, keepdim=True)


def get_inputs():
    return [torch.randn(3, 5, 9, 7)]


def get_init_inputs():
    return []

"""Tiny MLP on a 3-D (batch, seq, features) input: Linear(37 -> 53) -> nn.SiLU ->
Linear(53 -> 41) -> nn.Hardswish -> Linear(41 -> 29) -> nn.LayerNorm(29).
Input (5, 7, 37); output (5, 7, 29)."""

import torch
import torch.nn as nn

B, T = 5, 7


class Model(nn.Module):
    def __init__(self, d0, d1, d2, d3):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d0, d1),
            nn.SiLU(),
            nn.Linear(d1, d2),
            nn.Hardswish(),
            nn.Linear(d2, d3),
            nn.LayerNorm(d3),
        )

    def forward(self, x):
        return self.net(x)


def get_inputs():
    return [torch.randn(B, T, 37)]


def get_init_inputs():
    return [37, 53, 41, 29]

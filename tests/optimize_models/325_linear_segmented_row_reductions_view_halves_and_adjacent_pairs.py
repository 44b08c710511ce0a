"""Segmented row reductions of a GEMM output (NOT whole-row reductions): nn.Linear (65, 48) -> 134,
z.view(65, 2, 67).amax(-1) (max over each contiguous half of the row) -> sigmoid(h0 - h1), and
z.view(65, 67, 2).sum(-1) (sums of adjacent column pairs) -> tanh; plus one true row reduction
z.mean(-1) for contrast.
Input x: (65, 48); outputs (65,), (65, 67), (65,) as a tuple."""

import torch
import torch.nn as nn

B, D_IN, HALF = 65, 48, 67


class Model(nn.Module):
    def __init__(self, in_features, half):
        super().__init__()
        self.half = half
        self.fc = nn.Linear(in_features, 2 * half)

    def forward(self, x):
        z = self.fc(x)
        h = z.view(-1, 2, self.half).amax(dim=-1)           # (65, 2)
        gate = torch.sigmoid(h[:, 0] - h[:, 1])
        pairs = torch.tanh(z.view(-1, self.half, 2).sum(dim=-1) * 0.5)
        return gate, pairs, z.mean(dim=-1)


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, HALF]

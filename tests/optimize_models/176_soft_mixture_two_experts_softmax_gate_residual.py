"""Soft mixture of two experts with no routing branches: gate nn.Linear(32 -> 2) ->
softmax over the expert dim; both experts (each nn.Linear(32 -> 72) -> GELU ->
nn.Linear(72 -> 32)) run on every token; outputs stacked to (B, T, 32, 2) and mixed with
the gate weights (unsqueezed to (B, T, 1, 2)) by a sum over the last dim; residual add.
Input (4, 9, 32); output (4, 9, 32)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HIDDEN, E = 4, 9, 32, 72, 2


class Expert(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class Model(nn.Module):
    def __init__(self, dim, hidden, num_experts):
        super().__init__()
        self.gate = nn.Linear(dim, num_experts)
        self.experts = nn.ModuleList([Expert(dim, hidden) for _ in range(num_experts)])

    def forward(self, x):
        weights = F.softmax(self.gate(x), dim=-1)  # (B, T, E)
        expert_out = torch.stack([e(x) for e in self.experts], dim=-1)  # (B, T, D, E)
        mixed = (expert_out * weights.unsqueeze(-2)).sum(dim=-1)
        return x + mixed


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, HIDDEN, E]

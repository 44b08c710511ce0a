"""Correct ELU that allocates nothing but its output (memory tests bound the harness's copies)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return torch.nn.functional.elu(x, alpha=self.alpha)

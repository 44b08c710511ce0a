"""forward() allocates without bound."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.hoard = []

    def forward(self, x):
        while True:
            self.hoard.append(torch.ones(64 << 20, dtype=torch.uint8, device=x.device))

"""Correct, but floods stdout; the log keeps the tail."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        for i in range(2000):
            print("debug line %d" % i)
        return torch.nn.functional.elu(x, alpha=self.alpha)

"""A problem whose reference raises: the verdict must blame the problem, not the candidate."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        raise ValueError("reference is broken")


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []

"""Linear, dropout in training mode (a module is in training mode unless told otherwise), then
softmax: a forward that draws random numbers."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features, p):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.dropout = nn.Dropout(p)

    def forward(self, x):
        return torch.softmax(self.dropout(self.linear(x)), dim=1)


def get_inputs():
    return [torch.rand(24, 96)]


def get_init_inputs():
    return [96, 320, 0.2]

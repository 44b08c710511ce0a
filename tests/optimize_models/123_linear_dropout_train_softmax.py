"""Linear -> nn.Dropout(p=0.25) in training mode (the module is left in train mode, so
the output is random: kept elements are scaled by 1/0.75) -> softmax over the last dim.
Input x is (6, 23, 96); Linear 96 -> 80. Returns the dropped logits and the softmax."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, d_in, d_out, p):
        super().__init__()
        self.fc = nn.Linear(d_in, d_out)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        h = self.drop(self.fc(x))
        return h, torch.softmax(h, dim=-1)


def get_inputs():
    return [torch.randn(6, 23, 96)]


def get_init_inputs():
    return [96, 80, 0.25]

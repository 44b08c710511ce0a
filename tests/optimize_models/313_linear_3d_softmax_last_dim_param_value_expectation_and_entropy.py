"""nn.Linear on a 3-D (5, 17, 48) input -> 129, divided by a Python-float temperature, softmax over
the last dim (129, odd), then two weighted row sums of the probabilities: the expectation of a
(129,) value parameter, sum(p * v, dim=-1), and the entropy -(p * log_softmax).sum(-1).
Input x: (5, 17, 48); outputs (5, 17) and (5, 17) as a tuple."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D_IN, D_OUT = 5, 17, 48, 129


class Model(nn.Module):
    def __init__(self, in_features, out_features, temperature):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.values = nn.Parameter(torch.randn(out_features))
        self.temperature = temperature

    def forward(self, x):
        z = self.fc(x) / self.temperature
        p = torch.softmax(z, dim=-1)
        expected = (p * self.values).sum(dim=-1)
        entropy = -(p * F.log_softmax(z, dim=-1)).sum(dim=-1)
        return expected, entropy


def get_inputs():
    return [torch.randn(B, T, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT, 0.7]

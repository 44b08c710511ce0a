"""Scaled, masked softmax over the last dim (mask from a comparison), then multiply by the
input and take log_softmax of the result."""

import torch
import torch.nn as nn

B, R, D = 4, 63, 250


class Model(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, m):
        logits = x * self.scale
        logits = logits.masked_fill(m > 1.2, float("-inf"))
        p = torch.softmax(logits, dim=-1)
        return torch.log_softmax(p * x, dim=-1)


def get_inputs():
    return [torch.randn(B, R, D), torch.randn(B, R, D)]


def get_init_inputs():
    return [0.125]

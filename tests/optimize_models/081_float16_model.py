"""A float16 model: .half() Linear and LayerNorm, float16 inputs, pointwise chain and a
softmax all in half precision."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, IN, OUT = 33, 120, 88


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features).half()
        self.ln = nn.LayerNorm(out_features).half()

    def forward(self, x, r):
        y = F.silu(self.ln(self.fc(x))) + r * 0.5
        return torch.softmax(y, dim=-1), y


def get_inputs():
    return [torch.randn(B, IN, dtype=torch.float16), torch.randn(B, OUT, dtype=torch.float16)]


def get_init_inputs():
    return [IN, OUT]

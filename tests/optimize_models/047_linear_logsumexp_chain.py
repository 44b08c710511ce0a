"""nn.Linear -> LeakyReLU -> logsumexp over features (keepdim) -> GELU; a GEMM anchor
feeding a reduction and a post-reduction pointwise op."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, IN, OUT = 133, 199, 300


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = F.leaky_relu(self.fc(x), 0.01)
        y = torch.logsumexp(y, dim=1, keepdim=True)
        return F.gelu(y - 6.0) * torch.tanh(y * 0.1)


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]

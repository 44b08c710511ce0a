"""torch.matmul (97, 64) x (64, 201) parameter + bias, then two row reductions of the SAME GEMM
output, both returned as they are: torch.max(z, dim=-1) (values and int64 indices) and
z.sum(dim=-1). No pointwise op after either reduction.
Input x: (97, 64); outputs (97,) float, (97,) int64, (97,) float as a tuple."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 97, 64, 201


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) / in_features ** 0.5)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.1)

    def forward(self, x):
        z = torch.matmul(x, self.weight) + self.bias
        mx, idx = torch.max(z, dim=-1)
        s = z.sum(dim=-1)
        return mx, idx, s


def get_inputs():
    return [torch.randn(B, D_IN)]


def get_init_inputs():
    return [D_IN, D_OUT]

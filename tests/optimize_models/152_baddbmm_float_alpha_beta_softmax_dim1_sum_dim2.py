"""torch.baddbmm(inp, b1, b2, beta=0.7, alpha=1.3) with Python float alpha/beta on
(5, 13, 11) @ (5, 11, 17) plus a (5, 13, 17) input, softmax over dim 1 (not the last dim),
then a sum over dim 2. Inputs (5, 13, 17), (5, 13, 11), (5, 11, 17); output (5, 13)."""

import torch
import torch.nn as nn

B, N, M, P = 5, 13, 11, 17


class Model(nn.Module):
    def __init__(self, alpha, beta):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, inp, b1, b2):
        x = torch.baddbmm(inp, b1, b2, beta=self.beta, alpha=self.alpha)
        x = torch.softmax(x, dim=1)
        return x.sum(dim=2)


def get_inputs():
    return [torch.randn(B, N, P), torch.randn(B, N, M), torch.randn(B, M, P)]


def get_init_inputs():
    return [1.3, 0.7]

"""Degenerate GEMM shapes: matrix-vector (torch.mv, matmul with a 1-D operand), torch.dot
and torch.outer, each with a pointwise epilogue."""

import torch
import torch.nn as nn

M, N = 301, 257


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.v = nn.Parameter(torch.randn(n) / n ** 0.5)

    def forward(self, a, u, w):
        y = torch.relu(torch.mv(a, self.v))                  # (M,)
        z = torch.matmul(u, a) / M                           # (N,)
        d = torch.dot(u, y)                                  # ()
        o = torch.tanh(torch.outer(y, w))                    # (M, len(w))
        return y * torch.sigmoid(d * 0.01), z, o


def get_inputs():
    return [torch.randn(M, N), torch.randn(M), torch.randn(29)]


def get_init_inputs():
    return [N]

"""Batched torch.matmul with a broadcast 2-D right operand (B, M, K) @ (K, N), then a
4-D batched matmul (B, H, M, K) @ (B, H, K, N), each followed by pointwise ops."""

import torch
import torch.nn as nn

B, H, M, K, N = 4, 3, 33, 65, 47


class Model(nn.Module):
    def __init__(self, k, n):
        super().__init__()
        self.w = nn.Parameter(torch.randn(k, n) / k ** 0.5)

    def forward(self, x, a, b):
        y = torch.sigmoid(torch.matmul(x, self.w))
        z = torch.matmul(a, b) / K
        return y * 2.0 - 1.0, torch.relu(z) + z.amax(dim=-1, keepdim=True)


def get_inputs():
    return [torch.randn(B, M, K), torch.randn(B, H, M, K), torch.randn(B, H, K, N)]


def get_init_inputs():
    return [K, N]

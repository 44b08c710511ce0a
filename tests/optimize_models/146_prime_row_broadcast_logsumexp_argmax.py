"""Outer-product style broadcast: a (1, 1, N) input with N = 131 (prime) against a (B, M, 1)
input gives (B, M, N) via a * b + tanh(a - b) + a (N) parameter; then logsumexp over dim 1
(-> (B, N), float32) and argmax over dim 2 (-> (B, M), int64); returned as a tuple.
Inputs a: (1, 1, 131), b: (4, 23, 1); outputs (4, 131) float32 and (4, 23) int64."""

import torch
import torch.nn as nn

B, M, N = 4, 23, 131


class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(n) * 0.3)

    def forward(self, a, b):
        t = a * b + torch.tanh(a - b) + self.bias        # (B, M, N)
        return torch.logsumexp(t, dim=1), torch.argmax(t, dim=2)


def get_inputs():
    return [torch.randn(1, 1, N), torch.randn(B, M, 1)]


def get_init_inputs():
    return [N]

"""LLaMA-style feed-forward sub-block: h = x + feed_forward(ffn_norm(x)). RMSNorm written by
hand: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight (random (47,) weight,
eps 1e-6). FeedForward with the LLaMA hidden size rule (hidden = int(2 * 4 * dim / 3)
rounded up to multiple_of=8 -> 128): w2(F.silu(w1(x)) * w3(x)), three nn.Linear without bias
(47 -> 128, 47 -> 128, 128 -> 47). Input (3, 11, 47); output (3, 11, 47)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, DIM, MULTIPLE_OF = 3, 11, 47, 8


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim) + 0.2 * torch.randn(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        return self._norm(x) * self.weight


class FeedForward(nn.Module):
    def __init__(self, dim, hidden_dim, multiple_of):
        super().__init__()
        hidden_dim = int(2 * hidden_dim / 3)
        hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Model(nn.Module):
    def __init__(self, dim, multiple_of):
        super().__init__()
        self.ffn_norm = RMSNorm(dim, eps=1e-6)
        self.feed_forward = FeedForward(dim, 4 * dim, multiple_of)

    def forward(self, x):
        return x + self.feed_forward(self.ffn_norm(x))


def get_inputs():
    return [torch.randn(B, T, DIM)]


def get_init_inputs():
    return [DIM, MULTIPLE_OF]

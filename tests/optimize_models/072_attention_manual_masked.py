"""Hand-written attention: q @ k^T * scale, additive padding mask from a comparison,
softmax, @ v; with separate q/k/v inputs of odd lengths."""

import math

import torch
import torch.nn as nn

B, H, TQ, TK, HD = 3, 5, 37, 53, 24


class Model(nn.Module):
    def __init__(self, head_dim):
        super().__init__()
        self.scale = 1.0 / math.sqrt(head_dim)

    def forward(self, q, k, v, key_score):
        s = torch.matmul(q, k.transpose(-2, -1)) * self.scale       # (B, H, TQ, TK)
        pad = (key_score < -1.5).unsqueeze(1).unsqueeze(2)            # (B, 1, 1, TK)
        s = s.masked_fill(pad, -1e9)
        p = torch.softmax(s, dim=-1)
        return torch.matmul(p, v)


def get_inputs():
    return [torch.randn(B, H, TQ, HD), torch.randn(B, H, TK, HD), torch.randn(B, H, TK, HD),
            torch.randn(B, TK)]


def get_init_inputs():
    return [HD]

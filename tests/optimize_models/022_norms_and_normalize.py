"""Vector norms: torch.norm L1/L2, linalg.vector_norm with p=3 and inf, and F.normalize
(p=2 last dim, p=1 middle dim)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, D = 10, 17, 301


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        l1 = torch.norm(x, p=1, dim=-1)
        l2 = torch.norm(x, dim=-1, keepdim=True)
        l3 = torch.linalg.vector_norm(x, ord=3, dim=(1, 2))
        linf = torch.linalg.vector_norm(x, ord=float("inf"), dim=1)
        n2 = F.normalize(x, p=2.0, dim=-1)
        n1 = F.normalize(x, p=1.0, dim=1)
        y = n2 + n1 * l1.unsqueeze(-1) / (l2 + 1.0)
        return y, l3, linf


def get_inputs():
    return [torch.randn(B, C, D)]


def get_init_inputs():
    return []

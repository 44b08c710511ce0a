import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, eps: float = 1e-6):
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = x.shape[-1]
        ss = (x * x).sum(dim=-1, keepdim=True)
        return x * torch.rsqrt(ss / d + self.eps)

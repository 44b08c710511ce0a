import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, eps: float = 1e-5):
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor):
        d = x.shape[-1]
        y = F.layer_norm(x, (d,), eps=self.eps)
        var = torch.var(x, dim=-1)
        return y, var

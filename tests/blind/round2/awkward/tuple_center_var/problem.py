import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Per-row standardization that also returns the per-row (biased) variance.

    forward(x) -> (y, var)
        x:   [B, T, D] float32
        y:   [B, T, D]  (x - mean) / sqrt(var + eps)
        var: [B, T]     mean((x - mean)^2) over the last dim (biased, divide by D)
    """

    def __init__(self, eps: float = 1e-5):
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor):
        mean = x.mean(dim=-1, keepdim=True)
        xc = x - mean
        var = (xc * xc).mean(dim=-1)
        y = xc * torch.rsqrt(var + self.eps).unsqueeze(-1)
        return y, var


B, T, D = 16, 512, 1024
EPS = 1e-5


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [EPS]

import torch
import torch.nn as nn


class Model(nn.Module):
    """
    RMS normalization of float16 activations over the last dim. The statistics
    are computed in float32 and the result is returned in float16.

    forward(x) -> x / sqrt(mean(x^2, dim=-1) + eps)
        x: [B, D] float16 with large-magnitude entries (std ~8)
    """

    def __init__(self, eps: float = 1e-6):
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        rms = torch.sqrt(xf.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return (xf / rms).to(x.dtype)


B, D = 8192, 4096
EPS = 1e-6


def get_inputs():
    return [(8.0 * torch.randn(B, D)).to(torch.float16)]


def get_init_inputs():
    return [EPS]

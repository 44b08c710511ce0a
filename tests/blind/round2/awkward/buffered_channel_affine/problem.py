import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Frozen per-channel normalization + affine (inference-style batch norm written
    by hand). The statistics live in registered buffers and the affine terms in
    nn.Parameters; all of them are randomly initialized in __init__.

    forward(x) -> (x - running_mean) / sqrt(running_var + eps) * weight + bias
        x: [N, C, H, W] float32, statistics broadcast over N, H, W
    """

    def __init__(self, num_channels: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.5 * torch.randn(num_channels))
        self.bias = nn.Parameter(0.5 * torch.randn(num_channels))
        self.register_buffer("running_mean", 0.5 * torch.randn(num_channels))
        self.register_buffer("running_var", 0.25 + 2.0 * torch.rand(num_channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = self.running_mean.view(1, -1, 1, 1)
        var = self.running_var.view(1, -1, 1, 1)
        w = self.weight.view(1, -1, 1, 1)
        b = self.bias.view(1, -1, 1, 1)
        return (x - mean) * torch.rsqrt(var + self.eps) * w + b


N, C, H, W = 32, 64, 64, 64
EPS = 1e-3


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, EPS]

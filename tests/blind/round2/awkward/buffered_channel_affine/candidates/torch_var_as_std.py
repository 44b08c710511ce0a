import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, num_channels: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.5 * torch.randn(num_channels))
        self.bias = nn.Parameter(0.5 * torch.randn(num_channels))
        self.register_buffer("running_mean", 0.5 * torch.randn(num_channels))
        self.register_buffer("running_var", 0.25 + 2.0 * torch.rand(num_channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scale = self.weight / (self.running_var + self.eps)
        shift = self.bias - self.running_mean * scale
        return torch.addcmul(shift.view(1, -1, 1, 1), x, scale.view(1, -1, 1, 1))

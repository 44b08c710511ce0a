"""CBAM channel attention: nn.AdaptiveAvgPool2d((1, 1)) and nn.AdaptiveMaxPool2d((1, 1))
of the input, concatenated along the batch dim (2N, C, 1, 1) so one shared MLP
(Conv2d 1x1 C -> C // 5, no bias -> ReLU -> Conv2d 1x1 C // 5 -> C, no bias) runs once,
split back with chunk(2, dim=0), summed, sigmoid gate times the input.
Input (2, 27, 13, 11); output (2, 27, 13, 11)."""

import torch
import torch.nn as nn

N, C, H, W, REDUCTION = 2, 27, 13, 11, 5


class Model(nn.Module):
    def __init__(self, channels, reduction):
        super().__init__()
        hidden = channels // reduction
        self.avg_pool = nn.AdaptiveAvgPool2d((1, 1))
        self.max_pool = nn.AdaptiveMaxPool2d((1, 1))
        self.mlp = nn.Sequential(
            nn.Conv2d(channels, hidden, kernel_size=1, bias=False),
            nn.ReLU(inplace=True),
            nn.Conv2d(hidden, channels, kernel_size=1, bias=False),
        )

    def forward(self, x):
        pooled = torch.cat([self.avg_pool(x), self.max_pool(x)], dim=0)
        a, m = self.mlp(pooled).chunk(2, dim=0)
        gate = torch.sigmoid(a + m)
        return x * gate


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, REDUCTION]

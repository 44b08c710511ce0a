"""Small conv classification head on a strided, sliced input.
x = randn(2, 6, 31, 29)[:, :, 2:-3, 1::2] (2, 6, 26, 14): row slice plus stride-2 columns
(strides (5394, 899, 29, 2), storage offset 59).
h = Conv2d(6 -> 12, k3, padding 1)(x) -> GroupNorm(4, 12) (random affine) -> SiLU;
h = Conv2d(12 -> 12, k3, stride 2, padding 1, groups=3, bias=False)(h) (2, 12, 13, 7) + a
(C, 1, 1) bias; GroupNorm(3 groups, no affine) by F.group_norm, then * (C, 1, 1) gamma +
(C, 1, 1) beta; swish with a learned (C, 1, 1) beta_s: h * sigmoid(beta_s * h);
global pooling: cat([h.mean((2, 3)), h.amax((2, 3))], dim=1) (2, 24) -> Linear(24 -> 7) * a
(1, 7) scale -> log_softmax.
Outputs: log-probabilities (2, 7), pooled features (2, 24)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, c, classes):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, c, 3, padding=1)
        self.gn1 = nn.GroupNorm(4, c)
        with torch.no_grad():
            self.gn1.weight.copy_(1.0 + 0.2 * torch.randn(c))
            self.gn1.bias.copy_(0.1 * torch.randn(c))
        self.conv2 = nn.Conv2d(c, c, 3, stride=2, padding=1, groups=3, bias=False)
        self.bias2 = nn.Parameter(0.1 * torch.randn(c, 1, 1))
        self.gamma = nn.Parameter(1.0 + 0.2 * torch.randn(c, 1, 1))
        self.beta = nn.Parameter(0.1 * torch.randn(c, 1, 1))
        self.beta_s = nn.Parameter(1.0 + 0.3 * torch.randn(c, 1, 1))
        self.fc = nn.Linear(2 * c, classes)
        self.scale = nn.Parameter(1.0 + 0.2 * torch.randn(1, classes))

    def forward(self, x):
        h = F.silu(self.gn1(self.conv1(x)))
        h = self.conv2(h) + self.bias2
        h = F.group_norm(h, 3) * self.gamma + self.beta
        h = h * torch.sigmoid(self.beta_s * h)
        pooled = torch.cat([h.mean(dim=(2, 3)), h.amax(dim=(2, 3))], dim=1)
        logits = self.fc(pooled) * self.scale
        return F.log_softmax(logits, dim=-1), pooled


def get_inputs():
    return [torch.randn(2, 6, 31, 29)[:, :, 2:-3, 1::2]]


def get_init_inputs():
    return [6, 12, 7]

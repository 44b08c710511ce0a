"""FiLM residual block (Perez et al., CLEVR): Conv2d 1x1 12 -> 12 + bias -> ReLU (kept as the
residual), Conv2d 3x3 padding 1 -> GroupNorm(4, 12, affine=False) -> FiLM y * gamma(cond) +
beta(cond) with gamma, beta two nn.Linear(19 -> 12) of the conditioning vector reshaped to
(N, 12, 1, 1) -> ReLU -> + residual.
Inputs x (3, 12, 13, 11), cond (3, 19); output (3, 12, 13, 11)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W, COND = 3, 12, 13, 11, 19


class FiLM(nn.Module):
    def __init__(self, cond_dim, num_features):
        super().__init__()
        self.gamma = nn.Linear(cond_dim, num_features)
        self.beta = nn.Linear(cond_dim, num_features)
        with torch.no_grad():
            self.gamma.bias.add_(1.0)

    def forward(self, y, cond):
        gamma = self.gamma(cond).view(y.size(0), y.size(1), 1, 1)
        beta = self.beta(cond).view(y.size(0), y.size(1), 1, 1)
        return y * gamma + beta


class Model(nn.Module):
    def __init__(self, channels, cond_dim):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, kernel_size=1)
        self.conv2 = nn.Conv2d(channels, channels, kernel_size=3, padding=1)
        self.norm = nn.GroupNorm(4, channels, affine=False)
        self.film = FiLM(cond_dim, channels)

    def forward(self, x, cond):
        x = F.relu(self.conv1(x))
        residual = x
        out = self.conv2(x)
        out = self.norm(out)
        out = self.film(out, cond)
        out = F.relu(out)
        return out + residual


def get_inputs():
    return [torch.randn(N, C, H, W), torch.randn(N, COND)]


def get_init_inputs():
    return [C, COND]

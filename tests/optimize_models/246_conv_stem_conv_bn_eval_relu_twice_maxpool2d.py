"""CNN stem in eval mode: Conv2d 3x3 stride 2 (no bias) -> BatchNorm2d -> ReLU -> Conv2d 3x3
(no bias) -> BatchNorm2d -> ReLU -> MaxPool2d(3, stride 2, padding 1). The batch norms have
random running statistics and affine parameters; self.eval() is called in __init__.
Input x: (2, 3, 29, 23); conv1 -> (2, 12, 15, 12), conv2 -> (2, 20, 15, 12),
output (2, 20, 8, 6)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, H, W = 2, 3, 29, 23
C1, C2 = 12, 20


def _randomise_bn(bn):
    with torch.no_grad():
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 2.0)
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.3, 0.3)


class Model(nn.Module):
    def __init__(self, c_in, c1, c2):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c1, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c1)
        self.conv2 = nn.Conv2d(c1, c2, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c2)
        self.pool = nn.MaxPool2d(3, stride=2, padding=1)
        _randomise_bn(self.bn1)
        _randomise_bn(self.bn2)
        self.eval()

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        return self.pool(x)


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, C1, C2]

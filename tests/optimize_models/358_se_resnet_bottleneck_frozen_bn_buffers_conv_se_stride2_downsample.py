"""SE-ResNet bottleneck block (torchvision Bottleneck with a squeeze-and-excitation module,
as in SENet), stride 2 on the 3x3 conv, with detectron2-style FrozenBatchNorm2d written by
hand: registered buffers weight / bias / running_mean / running_var, scale = weight *
(running_var + eps).rsqrt(), shift = bias - running_mean * scale, x * scale.reshape(1, -1,
1, 1) + shift.reshape(1, -1, 1, 1) (no buffer updates in forward).
Main path: Conv2d 1x1 16 -> 8 (no bias) -> FrozenBN -> ReLU -> Conv2d 3x3 stride 2 padding 1
8 -> 8 -> FrozenBN -> ReLU -> Conv2d 1x1 8 -> 32 -> FrozenBN. SE: x.mean((2, 3),
keepdim=True) -> Conv2d 1x1 32 -> 8 + bias -> ReLU -> Conv2d 1x1 8 -> 32 + bias -> sigmoid,
out * gate. Shortcut: Conv2d 1x1 stride 2 16 -> 32 (no bias) -> FrozenBN. Add, ReLU.
Input (2, 16, 15, 13); output (2, 32, 8, 7)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, WIDTH, EXPANSION, H, W, SE_REDUCTION = 2, 16, 8, 4, 15, 13, 4


class FrozenBatchNorm2d(nn.Module):
    def __init__(self, n, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.register_buffer("weight", torch.randn(n) * 0.3 + 1.0)
        self.register_buffer("bias", torch.randn(n) * 0.2)
        self.register_buffer("running_mean", torch.randn(n) * 0.3)
        self.register_buffer("running_var", torch.rand(n) + 0.5)

    def forward(self, x):
        scale = self.weight * (self.running_var + self.eps).rsqrt()
        bias = self.bias - self.running_mean * scale
        scale = scale.reshape(1, -1, 1, 1)
        bias = bias.reshape(1, -1, 1, 1)
        return x * scale + bias


class SEModule(nn.Module):
    def __init__(self, channels, reduction):
        super().__init__()
        self.fc1 = nn.Conv2d(channels, channels // reduction, kernel_size=1)
        self.fc2 = nn.Conv2d(channels // reduction, channels, kernel_size=1)

    def forward(self, x):
        s = x.mean((2, 3), keepdim=True)
        s = F.relu(self.fc1(s))
        s = torch.sigmoid(self.fc2(s))
        return x * s


class Model(nn.Module):
    def __init__(self, inplanes, planes, expansion, se_reduction, stride=2):
        super().__init__()
        out_planes = planes * expansion
        self.conv1 = nn.Conv2d(inplanes, planes, kernel_size=1, bias=False)
        self.bn1 = FrozenBatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn2 = FrozenBatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, out_planes, kernel_size=1, bias=False)
        self.bn3 = FrozenBatchNorm2d(out_planes)
        self.se = SEModule(out_planes, se_reduction)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = nn.Sequential(
            nn.Conv2d(inplanes, out_planes, kernel_size=1, stride=stride, bias=False),
            FrozenBatchNorm2d(out_planes),
        )

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        out = self.se(out)
        identity = self.downsample(x)
        out += identity
        return self.relu(out)


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, WIDTH, EXPANSION, SE_REDUCTION]

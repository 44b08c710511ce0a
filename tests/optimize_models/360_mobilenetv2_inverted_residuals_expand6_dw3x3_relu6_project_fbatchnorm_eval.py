"""Two MobileNetV2 inverted residual blocks as torchvision writes them (ConvBNReLU6
sequences), with batch norm as F.batch_norm(training=False) on registered running_mean /
running_var buffers and random affine parameters (no buffer updates in forward).
Block 1 (stride 1, 16 -> 16, use_res_connect): Conv2d 1x1 16 -> 96 (no bias) -> BN ->
ReLU6 -> depthwise Conv2d 3x3 (groups=96, padding 1) -> BN -> ReLU6 -> Conv2d 1x1 96 -> 16
-> BN (linear bottleneck, no activation), + x.
Block 2 (stride 2, 16 -> 24, no residual): the same with expansion 6 and a stride-2
depthwise conv. Input (2, 16, 17, 15); output (2, 24, 9, 8)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_IN, C_OUT, H, W, EXPAND = 2, 16, 24, 17, 15, 6


class BatchNormEval(nn.Module):
    def __init__(self, c, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.randn(c) * 0.3 + 1.0)
        self.bias = nn.Parameter(torch.randn(c) * 0.2)
        self.register_buffer("running_mean", torch.randn(c) * 0.3)
        self.register_buffer("running_var", torch.rand(c) + 0.5)

    def forward(self, x):
        return F.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                            training=False, momentum=0.1, eps=self.eps)


class ConvBNReLU(nn.Sequential):
    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1):
        padding = (kernel_size - 1) // 2
        super().__init__(
            nn.Conv2d(in_planes, out_planes, kernel_size, stride, padding, groups=groups, bias=False),
            BatchNormEval(out_planes),
            nn.ReLU6(inplace=True),
        )


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1))
        layers.extend([
            ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
            nn.Conv2d(hidden_dim, oup, 1, 1, 0, bias=False),
            BatchNormEval(oup),
        ])
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        else:
            return self.conv(x)


class Model(nn.Module):
    def __init__(self, c_in, c_out, expand_ratio):
        super().__init__()
        self.features = nn.Sequential(
            InvertedResidual(c_in, c_in, 1, expand_ratio),
            InvertedResidual(c_in, c_out, 2, expand_ratio),
        )

    def forward(self, x):
        return self.features(x)


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT, EXPAND]

"""DenseNet dense block and transition (torchvision _DenseLayer / _Transition, eval statistics)
on a channels_last input x (2, 12, 15, 13). Three dense layers, growth 6, bottleneck width 12:
each layer takes torch.cat(features, dim=1) of the input and all earlier layer outputs (12, 18,
24 channels), F.batch_norm(training=False) with random running stats and affine -> relu -> 1x1
Conv2d (no bias) -> 12 channels -> F.batch_norm(training=False) -> relu -> 3x3 Conv2d (padding 1,
no bias) -> 6 new channels. Block output torch.cat of all features (2, 30, 15, 13); transition:
batch_norm -> relu -> 1x1 Conv2d 30 -> 15 (no bias) -> avg_pool2d(2) (15x13 -> 7x6, last row and
column dropped). Outputs (2, 30, 15, 13) and (2, 15, 7, 6)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C0, H, W = 2, 12, 15, 13
GROWTH, BN_SIZE, LAYERS = 6, 2, 3


def _bn(c):
    bn = nn.BatchNorm2d(c)
    with torch.no_grad():
        bn.running_mean.copy_(torch.randn(c) * 0.3)
        bn.running_var.copy_(torch.rand(c) + 0.5)
        bn.weight.copy_(torch.rand(c) + 0.5)
        bn.bias.copy_(torch.randn(c) * 0.2)
    return bn


def _bn_eval(x, bn):
    return F.batch_norm(x, bn.running_mean, bn.running_var, bn.weight, bn.bias, False, 0.0, bn.eps)


class DenseLayer(nn.Module):
    def __init__(self, c_in, growth, bn_size):
        super().__init__()
        self.norm1 = _bn(c_in)
        self.conv1 = nn.Conv2d(c_in, bn_size * growth, 1, bias=False)
        self.norm2 = _bn(bn_size * growth)
        self.conv2 = nn.Conv2d(bn_size * growth, growth, 3, padding=1, bias=False)

    def forward(self, features):
        x = torch.cat(features, dim=1)
        x = self.conv1(F.relu(_bn_eval(x, self.norm1)))
        return self.conv2(F.relu(_bn_eval(x, self.norm2)))


class Model(nn.Module):
    def __init__(self, c0, growth, bn_size, layers):
        super().__init__()
        self.layers = nn.ModuleList(
            [DenseLayer(c0 + i * growth, growth, bn_size) for i in range(layers)])
        c_out = c0 + layers * growth
        self.norm = _bn(c_out)
        self.conv = nn.Conv2d(c_out, c_out // 2, 1, bias=False)

    def forward(self, x):
        features = [x]
        for layer in self.layers:
            features.append(layer(features))
        block = torch.cat(features, dim=1)
        t = self.conv(F.relu(_bn_eval(block, self.norm)))
        return block, F.avg_pool2d(t, 2)


def get_inputs():
    return [torch.randn(N, C0, H, W).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return [C0, GROWTH, BN_SIZE, LAYERS]

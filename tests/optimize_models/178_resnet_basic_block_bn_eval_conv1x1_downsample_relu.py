"""ResNet basic block with a stride-2 downsample, as torchvision writes it, in eval mode:
Conv2d 3x3 (stride 2, padding 1, no bias) -> BatchNorm2d -> ReLU -> Conv2d 3x3 (padding 1,
no bias) -> BatchNorm2d, plus a shortcut of Conv2d 1x1 (stride 2, no bias) -> BatchNorm2d,
added, then ReLU. All three batch norms have random running mean/var (var in (0.5, 1.5))
and random affine weight/bias, set in __init__ before .eval(): forward does not update
buffers. Input (2, 5, 17, 19); output (2, 9, 9, 10)."""

import torch
import torch.nn as nn

N, C_IN, C_OUT, H, W = 2, 5, 9, 17, 19


def _randomize_bn(bn):
    c = bn.num_features
    with torch.no_grad():
        bn.running_mean.copy_(torch.randn(c) * 0.3)
        bn.running_var.copy_(torch.rand(c) + 0.5)
        bn.weight.copy_(torch.randn(c) * 0.5 + 1.0)
        bn.bias.copy_(torch.randn(c) * 0.2)


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, kernel_size=3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(c_out, c_out, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.downsample = nn.Sequential(
            nn.Conv2d(c_in, c_out, kernel_size=1, stride=2, bias=False),
            nn.BatchNorm2d(c_out),
        )
        for bn in (self.bn1, self.bn2, self.downsample[1]):
            _randomize_bn(bn)
        self.eval()

    def forward(self, x):
        identity = self.downsample(x)
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        out = out + identity
        return self.relu(out)


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT]

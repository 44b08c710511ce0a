"""nn.Conv2d (6 -> 9, kernel 3, groups=3, bias) -> nn.InstanceNorm2d(affine=True,
track_running_stats=False; random affine weight and bias, no buffers) ->
clamp_min(-0.5) -> division by a learned 0-dim scalar parameter.
Input (4, 6, 19, 17); output (4, 9, 17, 15)."""

import torch
import torch.nn as nn

N, C_IN, C_OUT, H, W = 4, 6, 9, 19, 17


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, kernel_size=3, groups=3, bias=True)
        self.norm = nn.InstanceNorm2d(c_out, affine=True, track_running_stats=False)
        with torch.no_grad():
            self.norm.weight.copy_(torch.randn(c_out))
            self.norm.bias.copy_(torch.randn(c_out))
        self.divisor = nn.Parameter(torch.tensor(1.7))

    def forward(self, x):
        x = self.norm(self.conv(x))
        x = torch.clamp_min(x, -0.5)
        return x / self.divisor


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, C_OUT]

"""UNet decoder up step: ConvTranspose2d (12 -> 6, kernel 3, stride 2, padding 1, bias)
upsamples the low-resolution input from 7x9 to 13x17, torch.cat with a skip input
(5 channels) along dim 1 (11 channels), Conv2d 3x3 (padding 1, bias) 11 -> 9,
GroupNorm(3 groups, affine), SiLU.
Inputs: low (2, 12, 7, 9), skip (2, 5, 13, 17); output (2, 9, 13, 17)."""

import torch
import torch.nn as nn

N, C_LOW, C_UP, C_SKIP, C_OUT, H, W, GROUPS = 2, 12, 6, 5, 9, 7, 9, 3
H_UP, W_UP = 2 * H - 1, 2 * W - 1


class Model(nn.Module):
    def __init__(self, c_low, c_up, c_skip, c_out, groups):
        super().__init__()
        self.up = nn.ConvTranspose2d(c_low, c_up, kernel_size=3, stride=2, padding=1)
        self.conv = nn.Conv2d(c_up + c_skip, c_out, kernel_size=3, padding=1)
        self.norm = nn.GroupNorm(groups, c_out)
        self.act = nn.SiLU()
        with torch.no_grad():
            self.norm.weight.copy_(torch.randn(c_out) * 0.5 + 1.0)
            self.norm.bias.copy_(torch.randn(c_out) * 0.2)

    def forward(self, low, skip):
        x = self.up(low)
        x = torch.cat([x, skip], dim=1)
        x = self.conv(x)
        x = self.norm(x)
        return self.act(x)


def get_inputs():
    return [torch.randn(N, C_LOW, H, W), torch.randn(N, C_SKIP, H_UP, W_UP)]


def get_init_inputs():
    return [C_LOW, C_UP, C_SKIP, C_OUT, GROUPS]

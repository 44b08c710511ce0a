"""U-Net "Up" block in the style of the popular milesial/Pytorch-UNet code:
nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True) of the decoder feature
(2, 16, 7, 9) -> (2, 16, 14, 18), F.pad by the size difference to the skip connection
(diffY = 1, diffX = 1 split as [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY
// 2]), torch.cat([skip, x1], dim=1) -> 24 channels, then DoubleConv: Conv2d 3x3 24 -> 12 (no
bias) -> GroupNorm(4, 12) -> SiLU -> Conv2d 3x3 12 -> 12 (no bias) -> GroupNorm(4, 12) ->
SiLU. GroupNorms have random affine.
Inputs x1 (2, 16, 7, 9), skip (2, 8, 15, 19); output (2, 12, 15, 19)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C_DEC, C_SKIP, C_OUT, H, W = 2, 16, 8, 12, 7, 9
H_SKIP, W_SKIP = 15, 19


class DoubleConv(nn.Module):
    def __init__(self, in_channels, out_channels, mid_channels=None, groups=4):
        super().__init__()
        if not mid_channels:
            mid_channels = out_channels
        self.double_conv = nn.Sequential(
            nn.Conv2d(in_channels, mid_channels, kernel_size=3, padding=1, bias=False),
            nn.GroupNorm(groups, mid_channels),
            nn.SiLU(inplace=True),
            nn.Conv2d(mid_channels, out_channels, kernel_size=3, padding=1, bias=False),
            nn.GroupNorm(groups, out_channels),
            nn.SiLU(inplace=True),
        )
        with torch.no_grad():
            for m in self.double_conv:
                if isinstance(m, nn.GroupNorm):
                    m.weight.copy_(torch.randn(m.num_channels) * 0.2 + 1.0)
                    m.bias.copy_(torch.randn(m.num_channels) * 0.1)

    def forward(self, x):
        return self.double_conv(x)


class Model(nn.Module):
    def __init__(self, dec_channels, skip_channels, out_channels):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
        self.conv = DoubleConv(dec_channels + skip_channels, out_channels)

    def forward(self, x1, x2):
        x1 = self.up(x1)
        diffY = x2.size()[2] - x1.size()[2]
        diffX = x2.size()[3] - x1.size()[3]
        x1 = F.pad(x1, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])
        x = torch.cat([x2, x1], dim=1)
        return self.conv(x)


def get_inputs():
    return [torch.randn(N, C_DEC, H, W), torch.randn(N, C_SKIP, H_SKIP, W_SKIP)]


def get_init_inputs():
    return [C_DEC, C_SKIP, C_OUT]

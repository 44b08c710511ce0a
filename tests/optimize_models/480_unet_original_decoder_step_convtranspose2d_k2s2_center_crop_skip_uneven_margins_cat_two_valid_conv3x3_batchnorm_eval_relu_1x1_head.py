"""Decoder step of the original (Ronneberger 2015) U-Net: unpadded ('valid') convolutions, so the
encoder skip is larger than the upsampled map and is centre-cropped by slicing.
x (2, 16, 7, 9) from below, skip (2, 8, 19, 23) from the encoder.
up = ConvTranspose2d(16, 8, kernel 2, stride 2)(x) -> (2, 8, 14, 18).
Centre crop: dh = (19 - 14) // 2 = 2, dw = (23 - 18) // 2 = 2, skip[:, :, 2:16, 2:20]
(uneven margins: 2 rows above, 3 below; 2 columns left, 3 right) -> (2, 8, 14, 18).
torch.cat([crop, up], dim=1) -> (2, 16, 14, 18); Conv2d 16 -> 8 k3 padding 0 (no bias) +
BatchNorm2d (eval, random running stats) + ReLU -> (2, 8, 12, 16); Conv2d 8 -> 8 k3 padding 0
(no bias) + BatchNorm2d + ReLU -> (2, 8, 10, 14); 1x1 Conv2d 8 -> 3 head.
Outputs: logits (2, 3, 10, 14) and the decoder features (2, 8, 10, 14)."""

import torch
import torch.nn as nn

N = 2


def _bn(c):
    bn = nn.BatchNorm2d(c)
    with torch.no_grad():
        bn.weight.copy_(1.0 + 0.2 * torch.randn(c))
        bn.bias.copy_(0.1 * torch.randn(c))
        bn.running_mean.copy_(0.3 * torch.randn(c))
        bn.running_var.copy_(0.5 + torch.rand(c))
    return bn


class DoubleConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.block = nn.Sequential(
            nn.Conv2d(cin, cout, 3, bias=False),
            _bn(cout),
            nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, bias=False),
            _bn(cout),
            nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.block(x)


def center_crop(t, h, w):
    _, _, th, tw = t.shape
    dh = (th - h) // 2
    dw = (tw - w) // 2
    return t[:, :, dh:dh + h, dw:dw + w]


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(16, 8, kernel_size=2, stride=2)
        self.conv = DoubleConv(16, 8)
        self.head = nn.Conv2d(8, 3, kernel_size=1)

    def forward(self, x, skip):
        up = self.up(x)
        crop = center_crop(skip, up.shape[2], up.shape[3])
        h = torch.cat([crop, up], dim=1)
        feat = self.conv(h)
        return self.head(feat), feat


def get_inputs():
    return [torch.randn(N, 16, 7, 9), torch.randn(N, 8, 19, 23)]


def get_init_inputs():
    return []

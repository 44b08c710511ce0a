"""Sobel edge gradients with fixed (non-parameter) kernel buffers: 3x3 Sobel x / y kernels
stacked into a (2C, 1, 3, 3) buffer, depthwise conv2d (groups=C) after F.pad replicate,
channels split with view + unbind, gradient magnitude sqrt(gx^2 + gy^2 + eps), direction
atan2(gy, |gx| + eps) (continuous, no branch cut) on the luminance from a (1, C, 1, 1) conv
buffer; total variation anisotropic (|dx| + |dy| summed over dims (1, 2, 3), per sample) and
isotropic (sqrt on the cropped common region), 0-dim TV loss. Outputs: magnitude, direction,
per-sample TV (N,), 0-dim TV loss."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 3, 35, 29


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        sx = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
        sy = sx.t().contiguous()
        k = torch.stack([sx, sy]).unsqueeze(1).repeat(channels, 1, 1, 1)  # (2C, 1, 3, 3)
        self.register_buffer("sobel", k / 8.0)
        self.register_buffer("luma", torch.tensor([0.299, 0.587, 0.114])[:channels].view(1, channels, 1, 1))
        self.channels = channels

    def forward(self, img):
        p = F.pad(img, (1, 1, 1, 1), mode="replicate")
        g = F.conv2d(p, self.sobel, groups=self.channels)  # (N, 2C, H, W): gx0, gy0, gx1, ...
        g = g.view(img.shape[0], self.channels, 2, img.shape[2], img.shape[3])
        gx, gy = g.unbind(dim=2)
        mag = torch.sqrt(gx * gx + gy * gy + 1e-6)
        y = F.conv2d(img, self.luma)
        ly = F.conv2d(F.pad(y, (1, 1, 1, 1), mode="replicate"), self.sobel[:2])
        direction = torch.atan2(ly[:, 1:2], ly[:, 0:1].abs() + 1e-6)  # continuous: gx >= 0
        dh = img[:, :, 1:, :] - img[:, :, :-1, :]
        dw = img[:, :, :, 1:] - img[:, :, :, :-1]
        tv_aniso = dh.abs().sum(dim=(1, 2, 3)) + dw.abs().sum(dim=(1, 2, 3))
        tv_iso = torch.sqrt(dh[:, :, :, :-1] ** 2 + dw[:, :, :-1, :] ** 2 + 1e-8).mean()
        tv_loss = tv_aniso.mean() / img[0].numel() + tv_iso
        return mag, direction, tv_aniso, tv_loss


def get_inputs():
    return [torch.rand(N, C, H, W)]


def get_init_inputs():
    return [C]

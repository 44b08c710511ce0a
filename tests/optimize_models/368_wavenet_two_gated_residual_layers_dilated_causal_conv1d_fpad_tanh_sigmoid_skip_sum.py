"""Two WaveNet residual layers (dilations 1 and 2, kernel size 2). Each layer: causal
dilated Conv1d 16 -> 32 via left padding F.pad(x, ((k - 1) * dilation, 0)), .chunk(2, dim=1)
into filter / gate, torch.tanh(filter) * torch.sigmoid(gate), then a 1x1 Conv1d 16 -> 16
residual projection added to the layer input, and a 1x1 Conv1d 16 -> 24 skip projection;
the skips of both layers are summed. Input (2, 16, 63); outputs residual stream (2, 16, 63)
and skip sum (2, 24, 63)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, RES_CH, SKIP_CH, L, KERNEL = 2, 16, 24, 63, 2
DILATIONS = (1, 2)


class ResidualLayer(nn.Module):
    def __init__(self, residual_channels, skip_channels, kernel_size, dilation):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.dilated_conv = nn.Conv1d(residual_channels, 2 * residual_channels, kernel_size,
                                      dilation=dilation)
        self.res_conv = nn.Conv1d(residual_channels, residual_channels, 1)
        self.skip_conv = nn.Conv1d(residual_channels, skip_channels, 1)

    def forward(self, x):
        pad = (self.kernel_size - 1) * self.dilation
        h = self.dilated_conv(F.pad(x, (pad, 0)))
        filt, gate = h.chunk(2, dim=1)
        z = torch.tanh(filt) * torch.sigmoid(gate)
        skip = self.skip_conv(z)
        out = x + self.res_conv(z)
        return out, skip


class Model(nn.Module):
    def __init__(self, residual_channels, skip_channels, kernel_size, dilations):
        super().__init__()
        self.layers = nn.ModuleList(
            [ResidualLayer(residual_channels, skip_channels, kernel_size, d) for d in dilations]
        )

    def forward(self, x):
        skip_sum = 0
        for layer in self.layers:
            x, skip = layer(x)
            skip_sum = skip_sum + skip
        return x, skip_sum


def get_inputs():
    return [torch.randn(N, RES_CH, L)]


def get_init_inputs():
    return [RES_CH, SKIP_CH, KERNEL, list(DILATIONS)]

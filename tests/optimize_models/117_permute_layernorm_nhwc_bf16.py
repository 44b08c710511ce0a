"""bfloat16 ConvNeXt-style channel LayerNorm: NCHW input permuted to NHWC, nn.LayerNorm(C)
with bfloat16 random affine parameters, permuted back to NCHW, then multiplied by a
silu gate of the original input. Input (2, 21, 15, 13) in bfloat16."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 21, 15, 13


class Model(nn.Module):
    def __init__(self, channels, eps):
        super().__init__()
        self.ln = nn.LayerNorm(channels, eps=eps)
        with torch.no_grad():
            self.ln.weight.copy_(1.0 + 0.5 * torch.randn(channels))
            self.ln.bias.copy_(0.2 * torch.randn(channels))
        self.ln.to(torch.bfloat16)

    def forward(self, x):
        y = x.permute(0, 2, 3, 1)
        y = self.ln(y)
        y = y.permute(0, 3, 1, 2)
        return y * F.silu(x)


def get_inputs():
    return [(torch.randn(N, C, H, W) * 1.3 + 0.2).to(torch.bfloat16)]


def get_init_inputs():
    return [C, 1e-6]

"""Conv1d block with uncommon activations on a transposed input: x = randn(3, 41, 19)
.transpose(1, 2) gives (3, 19, 41) (B, C, L) with strides (779, 1, 19).
h = Conv1d 19 -> 23 (k5, padding 2); F.rrelu(h, lower=0.05, upper=0.25, training=False)
(eval mode: fixed slope (lower + upper) / 2); F.instance_norm without affine or running stats;
F.tanhshrink (x - tanh(x)); plus a 1x1 Conv1d shortcut; F.celu(alpha=0.7).
Outputs: y (3, 23, 41) and its mean over L (3, 23)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C_IN, C_OUT, L = 3, 19, 23, 41


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(C_IN, C_OUT, kernel_size=5, padding=2)
        self.skip = nn.Conv1d(C_IN, C_OUT, kernel_size=1, bias=False)

    def forward(self, x):
        h = self.conv(x)
        h = F.rrelu(h, lower=0.05, upper=0.25, training=False)
        h = F.instance_norm(h, eps=1e-5)
        h = F.tanhshrink(h)
        y = F.celu(h + self.skip(x), alpha=0.7)
        return y, y.mean(dim=-1)


def get_inputs():
    return [torch.randn(B, L, C_IN).transpose(1, 2)]


def get_init_inputs():
    return []

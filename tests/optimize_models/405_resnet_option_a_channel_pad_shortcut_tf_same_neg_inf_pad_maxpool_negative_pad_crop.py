"""Constant F.pad between pointwise ops and before pooling / reductions, CNN style.
x (2, 8, 17, 14). y = gelu(x * w (8,1,1) + b (8,1,1)). TensorFlow 'SAME' max pooling (k3,
stride 2): F.pad(y, (0, 1, 1, 1), value=-inf) -> (2, 8, 19, 15) -> max_pool2d(3, 2) -> (2, 8, 9, 7).
ResNet-CIFAR option-A shortcut: F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, 4, 4)) pads the channel
dim (8 -> 16, zeros) of the step-sliced (2, 8, 9, 7) input; main path p.repeat(1, 2, 1, 1) *
s (16,1,1); out = relu(main + shortcut) (2, 16, 9, 7). Negative pads crop: F.pad(out,
(-1, -2, -2, -1)) -> (2, 16, 6, 4). Padding with a non-zero fill before a reduction:
F.pad(out, (2, 1, 1, 2), value=0.25) (2, 16, 12, 10) -> avg_pool2d(2) (2, 16, 6, 5); and
F.pad(crop - 1, (1, 1), value=-0.5).amax(dim=(2, 3)) (2, 16). Outputs out (2, 16, 9, 7), crop
(2, 16, 6, 4), pooled (2, 16, 6, 5), amax (2, 16)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 8, 17, 14


def tf_same_pad(size, k, s):
    out = math.ceil(size / s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.w = nn.Parameter(torch.randn(c, 1, 1))
        self.b = nn.Parameter(torch.randn(c, 1, 1) * 0.3)
        self.s = nn.Parameter(torch.randn(2 * c, 1, 1))
        self.c = c

    def forward(self, x):
        y = F.gelu(x * self.w + self.b)
        ph = tf_same_pad(y.shape[2], 3, 2)
        pw = tf_same_pad(y.shape[3], 3, 2)
        p = F.max_pool2d(F.pad(y, (pw[0], pw[1], ph[0], ph[1]), mode="constant", value=float("-inf")), 3, 2)
        q = self.c // 2
        shortcut = F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, q, q), "constant", 0)
        main = p.repeat(1, 2, 1, 1) * self.s
        out = F.relu(main + shortcut)
        crop = F.pad(out, (-1, -2, -2, -1))
        pooled = F.avg_pool2d(F.pad(out, (2, 1, 1, 2), value=0.25), 2)
        amax = F.pad(crop - 1.0, (1, 1), value=-0.5).amax(dim=(2, 3))
        return out, crop, pooled, amax


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C]

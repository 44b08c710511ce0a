"""Average pooling variants followed by pointwise / normalisation chains.
x = randn(2, 5, 19, 23):
p1 = F.avg_pool2d(k3, stride 2, padding 1, count_include_pad=False) (2, 5, 10, 12) (border
windows divide by the number of real elements: 4 in corners, 6 on edges);
p2 = F.avg_pool2d(kernel (4, 3), stride (3, 2), padding (1, 1), ceil_mode=True,
divisor_override=5) (2, 5, 7, 12) (every window divides by 5, whatever it covers);
p3 = nn.AvgPool2d(k2, stride 2, padding 0, ceil_mode=True) with the default
count_include_pad=True (2, 5, 10, 12): the ceil-mode windows on the last row / column (19 and 23
are odd) hang past the input and divide by the clipped window size (2 or 1), not 4.
y1 = sigmoid(p1 * w + b) * p3 - 0.5 * p1 with (C, 1, 1) w, b; y2 = tanh(p2) + p2.mean(dim=1,
keepdim=True) (channel mean broadcast back).
v = randn(2, 3, 9, 14, 11):
q1 = F.avg_pool3d(k3, stride 2, padding (1, 0, 1), ceil_mode=True, count_include_pad=False)
(2, 3, 5, 7, 6); channels-first LayerNorm by permute(0, 2, 3, 4, 1) -> F.layer_norm(3, weight,
bias, eps 1e-6) -> permute back; hardswish.
q2 = F.avg_pool3d(k2, stride 2, divisor_override=7) (2, 3, 4, 7, 5) (sum of 8 / 7); relu6 of
q2 * 3 + 1.
Outputs: y1, y2, z1 (2, 3, 5, 7, 6), z2 (2, 3, 4, 7, 5)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c2d, c3d):
        super().__init__()
        self.w = nn.Parameter(1.0 + 0.3 * torch.randn(c2d, 1, 1))
        self.b = nn.Parameter(0.2 * torch.randn(c2d, 1, 1))
        self.pool3 = nn.AvgPool2d(kernel_size=2, stride=2, padding=0, ceil_mode=True)
        self.ln_w = nn.Parameter(1.0 + 0.1 * torch.randn(c3d))
        self.ln_b = nn.Parameter(0.1 * torch.randn(c3d))
        self.c3d = c3d

    def forward(self, x, v):
        p1 = F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)
        p2 = F.avg_pool2d(x, (4, 3), stride=(3, 2), padding=(1, 1), ceil_mode=True,
                          divisor_override=5)
        p3 = self.pool3(x)
        y1 = torch.sigmoid(p1 * self.w + self.b) * p3 - 0.5 * p1
        y2 = torch.tanh(p2) + p2.mean(dim=1, keepdim=True)

        q1 = F.avg_pool3d(v, 3, stride=2, padding=(1, 0, 1), ceil_mode=True,
                          count_include_pad=False)
        q1 = q1.permute(0, 2, 3, 4, 1)
        q1 = F.layer_norm(q1, (self.c3d,), self.ln_w, self.ln_b, 1e-6)
        z1 = F.hardswish(q1.permute(0, 4, 1, 2, 3))
        q2 = F.avg_pool3d(v, 2, stride=2, divisor_override=7)
        z2 = F.relu6(q2 * 3.0 + 1.0)
        return y1, y2, z1, z2


def get_inputs():
    return [torch.randn(2, 5, 19, 23), torch.randn(2, 3, 9, 14, 11)]


def get_init_inputs():
    return [5, 3]

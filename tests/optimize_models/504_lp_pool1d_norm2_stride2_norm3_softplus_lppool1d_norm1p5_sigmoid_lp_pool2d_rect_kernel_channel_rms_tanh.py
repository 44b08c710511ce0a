"""Power-average (LP) pooling, which PyTorch computes as avg_pool of x ** p, times the kernel
size, then sign(s) * relu(|s|) ** (1 / p); trailing elements that do not fill a window are
dropped.
x = randn(4, 9, 61):
l2 = F.lp_pool1d(x, norm_type=2, kernel_size=3, stride=2) (4, 9, 30) (sqrt of window sum of
squares; negative inputs are fine for p = 2);
l3 = F.lp_pool1d(softplus(x), norm_type=3, kernel_size=4) (stride defaults to 4) (4, 9, 15)
(the last element of 61 is dropped);
l15 = nn.LPPool1d(1.5, 5, stride=3) on sigmoid(x) (4, 9, 19) (fractional power of positives).
Each is divided by its mean over length (keepdim) + 1e-3; h = l2n[..., :15] * l3n +
l15n[..., 2:17]; channel RMS norm over dim 1 (rsqrt(mean(h ** 2, dim=1) + 1e-6)) with a
(C, 1) weight; tanh.
y = randn(2, 4, 15, 17): F.lp_pool2d(y, 2, kernel_size=(3, 2), stride=(2, 3)) (2, 4, 7, 6);
minus its mean over (2, 3) keepdim, times a (C, 1, 1) parameter, softsign.
Outputs: (4, 9, 15) and (2, 4, 7, 6)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        self.lp15 = nn.LPPool1d(1.5, 5, stride=3)
        self.rms_w = nn.Parameter(1.0 + 0.2 * torch.randn(c1, 1))
        self.w2 = nn.Parameter(torch.randn(c2, 1, 1))

    def forward(self, x, y):
        l2 = F.lp_pool1d(x, 2, kernel_size=3, stride=2)
        l3 = F.lp_pool1d(F.softplus(x), 3, kernel_size=4)
        l15 = self.lp15(torch.sigmoid(x))
        l2n = l2 / (l2.mean(dim=-1, keepdim=True) + 1e-3)
        l3n = l3 / (l3.mean(dim=-1, keepdim=True) + 1e-3)
        l15n = l15 / (l15.mean(dim=-1, keepdim=True) + 1e-3)
        h = l2n[..., :15] * l3n + l15n[..., 2:17]
        h = h * torch.rsqrt(h.pow(2).mean(dim=1, keepdim=True) + 1e-6) * self.rms_w
        out1 = torch.tanh(h)

        p = F.lp_pool2d(y, 2, kernel_size=(3, 2), stride=(2, 3))
        out2 = F.softsign((p - p.mean(dim=(2, 3), keepdim=True)) * self.w2)
        return out1, out2


def get_inputs():
    return [torch.randn(4, 9, 61), torch.randn(2, 4, 15, 17)]


def get_init_inputs():
    return [9, 4]

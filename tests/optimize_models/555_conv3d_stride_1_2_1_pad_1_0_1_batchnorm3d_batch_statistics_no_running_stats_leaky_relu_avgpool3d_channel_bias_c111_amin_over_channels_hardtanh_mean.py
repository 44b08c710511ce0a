"""Conv3d with per-dimension stride / padding, then batch-statistics normalisation and a chain
with pooling in the middle and a channel min reduction.
x = randn(2, 5, 7, 11, 9).
h = Conv3d(5 -> 8, k3, stride (1, 2, 1), padding (1, 0, 1))(x) (2, 8, 7, 5, 9);
BatchNorm3d(8, track_running_stats=False) (always normalises with the batch mean / biased var
over (N, D, H, W), no buffers; random affine) -> leaky_relu(0.1);
avg_pool3d(2) (2, 8, 3, 2, 4) + (C, 1, 1, 1) bias; m = amin(dim=1, keepdim=True) (2, 1, 3, 2, 4)
-> hardtanh(-0.75, 0.75); out = m.mean(dim=(2, 3, 4)) (2, 1).
Outputs: out (2, 1), m (2, 1, 3, 2, 4)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv3d(cin, cout, 3, stride=(1, 2, 1), padding=(1, 0, 1))
        self.bn = nn.BatchNorm3d(cout, track_running_stats=False)
        with torch.no_grad():
            self.bn.weight.copy_(1.0 + 0.2 * torch.randn(cout))
            self.bn.bias.copy_(0.1 * torch.randn(cout))
        self.bias = nn.Parameter(0.3 * torch.randn(cout, 1, 1, 1))

    def forward(self, x):
        h = F.leaky_relu(self.bn(self.conv(x)), 0.1)
        h = F.avg_pool3d(h, 2) + self.bias
        m = F.hardtanh(h.amin(dim=1, keepdim=True), -0.75, 0.75)
        return m.mean(dim=(2, 3, 4)), m


def get_inputs():
    return [torch.randn(2, 5, 7, 11, 9)]


def get_init_inputs():
    return [5, 8]

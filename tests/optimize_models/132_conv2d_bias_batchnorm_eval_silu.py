"""Conv2d with bias (5 -> 7, kernel 3, padding 1) followed by BatchNorm2d in eval mode
(non-trivial running mean/var and affine weight/bias set in __init__), then silu.
Input x: (2, 5, 17, 19); output (2, 7, 17, 19)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CIN, COUT, H, W = 2, 5, 7, 17, 19


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel_size=3, padding=1, bias=True)
        self.bn = nn.BatchNorm2d(cout)
        with torch.no_grad():
            self.bn.running_mean.copy_(torch.randn(cout) * 0.5)
            self.bn.running_var.copy_(torch.rand(cout) + 0.5)
            self.bn.weight.copy_(torch.randn(cout))
            self.bn.bias.copy_(torch.randn(cout) * 0.5)
        self.eval()

    def forward(self, x):
        return F.silu(self.bn(self.conv(x)))


def get_inputs():
    return [torch.randn(N, CIN, H, W)]


def get_init_inputs():
    return [CIN, COUT]

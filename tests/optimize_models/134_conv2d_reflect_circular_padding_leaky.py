"""Two Conv2d layers with bias on the same input, one with padding_mode='reflect' (kernel 3,
padding 1) and one with padding_mode='circular' (kernel 5, padding 2), outputs summed, then
leaky_relu (negative_slope 0.1). Input x: (2, 3, 13, 11); output (2, 7, 13, 11)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, CIN, COUT, H, W = 2, 3, 7, 13, 11


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv_reflect = nn.Conv2d(cin, cout, kernel_size=3, padding=1, bias=True,
                                      padding_mode="reflect")
        self.conv_circular = nn.Conv2d(cin, cout, kernel_size=5, padding=2, bias=True,
                                       padding_mode="circular")

    def forward(self, x):
        y = self.conv_reflect(x) + self.conv_circular(x)
        return F.leaky_relu(y, negative_slope=0.1)


def get_inputs():
    return [torch.randn(N, CIN, H, W)]


def get_init_inputs():
    return [CIN, COUT]

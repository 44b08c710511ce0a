"""Two 1-D pools on the same (B, C, L) input, L = 47 (odd): nn.MaxPool1d(kernel 7, stride 2,
padding 3, dilation 2; effective window 13, implicit -inf padding) and
nn.AvgPool1d(kernel 9, stride 2, padding 1, count_include_pad=False; the first and last
windows divide by 8, not 9). Both give length 21. Combined as m - 0.5 * a + m * a,
then softmax over channels (dim 1).
Input (3, 11, 47); output (3, 11, 21)."""

import torch
import torch.nn as nn

B, C, L = 3, 11, 47


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.maxpool = nn.MaxPool1d(kernel_size=7, stride=2, padding=3, dilation=2)
        self.avgpool = nn.AvgPool1d(kernel_size=9, stride=2, padding=1, count_include_pad=False)

    def forward(self, x):
        m = self.maxpool(x)
        a = self.avgpool(x)
        y = m - 0.5 * a + m * a
        return torch.softmax(y, dim=1)


def get_inputs():
    return [torch.randn(B, C, L)]


def get_init_inputs():
    return []

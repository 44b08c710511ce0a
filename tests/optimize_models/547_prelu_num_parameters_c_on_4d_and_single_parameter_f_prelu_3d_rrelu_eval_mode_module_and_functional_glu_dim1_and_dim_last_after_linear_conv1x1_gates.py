"""PReLU / RReLU / GLU variants.
x (2, 6, 11, 13): p1 = nn.PReLU(num_parameters=6) (per-channel slopes set to linspace(-0.5,
1.5, 6): negative, zero-ish and > 1 slopes) -> + per-channel (C,1,1) bias;
p2 = nn.PReLU() (single parameter, set to 0.6) on x.
s (4, 5, 23): p3 = F.prelu(s, w (5,)) on a 3-D input (channel dim 1).
rrelu in eval mode (deterministic slope (lower + upper) / 2): nn.RReLU(0.1, 0.3) put in eval
in __init__ (and kept there) -> slope 0.2; F.rrelu(x, -0.2, 0.5, training=False) -> slope 0.15.
glu over dim 1: 1x1 conv (6 -> 8 channels) of x -> F.glu(dim=1) (2, 4, 11, 13) -> sigmoid
amax over H.
glu over dim -1: s @ Linear(23 -> 14) -> nn.GLU(dim=-1) (4, 5, 7) -> softmax(-1); F.glu on
x.transpose(1, 3) over dim -1 (6 -> 3, non-contiguous input).
Outputs: p1, p2, p3, r1, r2, g1, g2, g3."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, channels, s_channels, s_len, conv_out, lin_out):
        super().__init__()
        self.prelu_c = nn.PReLU(num_parameters=channels)
        self.prelu_1 = nn.PReLU()
        with torch.no_grad():
            self.prelu_c.weight.copy_(torch.linspace(-0.5, 1.5, channels))
            self.prelu_1.weight.fill_(0.6)
        self.bias = nn.Parameter(0.1 * torch.randn(channels, 1, 1))
        self.w3 = nn.Parameter(torch.randn(s_channels))
        self.rrelu = nn.RReLU(0.1, 0.3)
        self.rrelu.eval()
        self.conv = nn.Conv2d(channels, conv_out, 1)
        self.fc = nn.Linear(s_len, lin_out)
        self.glu = nn.GLU(dim=-1)

    def train(self, mode=True):
        super().train(mode)
        self.rrelu.eval()
        return self

    def forward(self, x, s):
        p1 = self.prelu_c(x) + self.bias
        p2 = self.prelu_1(x)
        p3 = F.prelu(s, self.w3)
        r1 = self.rrelu(x)
        r2 = F.rrelu(x, -0.2, 0.5, training=False)
        g1 = torch.sigmoid(F.glu(self.conv(x), dim=1)).amax(dim=2)
        g2 = torch.softmax(self.glu(self.fc(s)), dim=-1)
        g3 = F.glu(x.transpose(1, 3), dim=-1)
        return p1, p2, p3, r1, r2, g1, g2, g3


def get_inputs():
    return [torch.randn(2, 6, 11, 13) * 2.0, torch.randn(4, 5, 23)]


def get_init_inputs():
    return [6, 5, 23, 8, 14]

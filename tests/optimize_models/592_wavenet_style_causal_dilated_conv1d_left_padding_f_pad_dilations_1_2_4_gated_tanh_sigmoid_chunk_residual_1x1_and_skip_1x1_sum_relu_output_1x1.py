"""WaveNet-style stack of causal dilated 1-D convolutions, causal by left padding with F.pad.
x = randn(3, 5, 37).
Three layers with dilation d in (1, 2, 4): h = F.pad(x, (2 * d, 0)) -> Conv1d(5 -> 16, k3,
dilation d, no padding) -> (a, g) = chunk(2, dim=1) -> tanh(a) * sigmoid(g) (3, 8, 37);
skip += Conv1d(8 -> 6, k1)(h); x = x + Conv1d(8 -> 5, k1)(h).
out = Conv1d(6 -> 6, k1)(relu(skip)).
Outputs: out (3, 6, 37) and the last residual stream x (3, 5, 37)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, L = 3, 5, 37


class Model(nn.Module):
    def __init__(self, channels, gate_channels, skip_channels, dilations):
        super().__init__()
        self.dilations = list(dilations)
        self.convs = nn.ModuleList(
            [nn.Conv1d(channels, 2 * gate_channels, 3, dilation=d) for d in self.dilations])
        self.res = nn.ModuleList([nn.Conv1d(gate_channels, channels, 1) for _ in self.dilations])
        self.skip = nn.ModuleList([nn.Conv1d(gate_channels, skip_channels, 1) for _ in self.dilations])
        self.out = nn.Conv1d(skip_channels, skip_channels, 1)

    def forward(self, x):
        skip = None
        for d, conv, res, sk in zip(self.dilations, self.convs, self.res, self.skip):
            h = conv(F.pad(x, (2 * d, 0)))
            a, g = h.chunk(2, dim=1)
            h = torch.tanh(a) * torch.sigmoid(g)
            s = sk(h)
            skip = s if skip is None else skip + s
            x = x + res(h)
        return self.out(torch.relu(skip)), x


def get_inputs():
    return [torch.randn(B, C, L)]


def get_init_inputs():
    return [C, 8, 6, (1, 2, 4)]

"""Long pointwise chain (14 ops) mixing broadcasts of a (C,1,1) parameter, a (1, W) parameter,
a 0-dim parameter, a 0-dim buffer and Python floats on a 4-D input, then one intermediate t
consumed by two later reductions: logsumexp over the last dim (-> (N, C, H)) and mean over
dims (0, 2) (-> (C, W)); the two are combined through broadcasting into the final output,
which is also returned alongside t's per-channel amax.
Input x: (3, 7, 13, 17); outputs (3, 7, 13, 17) and (7,) as a tuple."""

import torch
import torch.nn as nn

N, C, H, W = 3, 7, 13, 17


class Model(nn.Module):
    def __init__(self, channels, width, alpha):
        super().__init__()
        self.chan = nn.Parameter(torch.randn(channels, 1, 1) * 0.5)
        self.col = nn.Parameter(torch.rand(1, width) + 0.5)
        self.gain = nn.Parameter(torch.tensor(1.3))
        self.register_buffer("offset", torch.tensor(-0.4))
        self.alpha = alpha

    def forward(self, x):
        y = x * self.gain                       # 0-dim parameter
        y = y + self.chan                       # (C,1,1)
        y = y * self.col                        # (1, W)
        y = y - self.offset                     # 0-dim buffer
        y = y * self.alpha + 0.25               # Python floats
        y = torch.sigmoid(y) * y                # silu by hand
        y = y - 0.5 * x
        y = torch.clamp(y, -2.5, 3.0)
        y = y / (1.0 + self.col)                # (1, W) again
        y = torch.exp(-y * y) + y * self.chan
        t = torch.tanh(y) * 2.0 - self.offset * x
        lse = torch.logsumexp(t, dim=-1, keepdim=True)        # (N, C, H, 1)
        m02 = t.mean(dim=(0, 2), keepdim=True)                # (1, C, 1, W)
        out = (t - 0.5 * lse) * self.gain + m02
        ch_max = t.amax(dim=(0, 2, 3))                         # (C,)
        return out, ch_max


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return [C, W, 0.8]

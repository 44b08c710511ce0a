"""Size-1 dims in unusual places: input (1, 17, 1, 19) squeezed to (17, 1, 19), times a
(17, 1, 1) parameter plus tanh of the input, unsqueeze(0) back to (1, 17, 1, 19), amax over
the size-1 dim 2 -> (1, 17, 19), broadcast multiply with a (19,) parameter, then
unsqueeze(2) and add the input. Input (1, 17, 1, 19); output (1, 17, 1, 19)."""

import torch
import torch.nn as nn

C, W = 17, 19


class Model(nn.Module):
    def __init__(self, channels, width):
        super().__init__()
        self.chan = nn.Parameter(torch.randn(channels, 1, 1))
        self.col = nn.Parameter(torch.randn(width))

    def forward(self, x):
        y = x.squeeze(0)                       # (17, 1, 19)
        y = y * self.chan + torch.tanh(y)
        y = y.unsqueeze(0)                     # (1, 17, 1, 19)
        z = y.amax(dim=2)                      # (1, 17, 19), reduce the size-1 dim
        z = z * self.col                       # broadcast (19,)
        return z.unsqueeze(2) + x              # (1, 17, 1, 19)


def get_inputs():
    return [torch.randn(1, C, 1, W)]


def get_init_inputs():
    return [C, W]

"""RWKV channel-mixing blocks with token shift by F.pad with a positive and a negative pad on the
sequence dim. x = randn(3, 32, 17).transpose(1, 2) (3, 17, 32), non-contiguous (B, T, C). Block 1
(RWKV-4): h = LayerNorm(x); xx = F.pad(h, (0, 0, 1, -1)) (shift one step along T: zero row in
front, last row cropped); xk = h * mix_k + xx * (1 - mix_k), xr likewise with mix_r ((1, 1, 32)
parameters); k = relu(key(xk)) ** 2 (Linear 32 -> 96, no bias), kv = value(k) (96 -> 32, no
bias), x = x + sigmoid(receptance(xr)) * kv. Block 2 (RWKV-6 style): h = LayerNorm(x); dx =
F.pad(h, (0, 0, 1, -1)) - h; xk = h + dx * maa_k, xr = h + dx * maa_r; same squared-relu channel
mix and residual. Outputs (3, 17, 32) and the block-1 shifted view xx (3, 17, 32)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, C, HIDDEN = 3, 17, 32, 96


class ChannelMix(nn.Module):
    def __init__(self, c, hidden, v6):
        super().__init__()
        self.v6 = v6
        self.ln = nn.LayerNorm(c)
        self.mix_k = nn.Parameter(torch.rand(1, 1, c))
        self.mix_r = nn.Parameter(torch.rand(1, 1, c))
        self.key = nn.Linear(c, hidden, bias=False)
        self.value = nn.Linear(hidden, c, bias=False)
        self.receptance = nn.Linear(c, c, bias=False)

    def forward(self, x):
        h = self.ln(x)
        xx = F.pad(h, (0, 0, 1, -1))
        if self.v6:
            dx = xx - h
            xk = h + dx * self.mix_k
            xr = h + dx * self.mix_r
        else:
            xk = h * self.mix_k + xx * (1 - self.mix_k)
            xr = h * self.mix_r + xx * (1 - self.mix_r)
        k = torch.square(torch.relu(self.key(xk)))
        kv = self.value(k)
        return x + torch.sigmoid(self.receptance(xr)) * kv, xx


class Model(nn.Module):
    def __init__(self, c, hidden):
        super().__init__()
        self.block1 = ChannelMix(c, hidden, v6=False)
        self.block2 = ChannelMix(c, hidden, v6=True)

    def forward(self, x):
        x, xx = self.block1(x)
        x, _ = self.block2(x)
        return x, xx


def get_inputs():
    return [torch.randn(B, C, T).transpose(1, 2)]


def get_init_inputs():
    return [C, HIDDEN]

"""WaveNet-style 1-D convolutional audio front end. Waveform (B, 1, T): learned filterbank
Conv1d(1, 15, 11, stride 5) with abs-compression log1p(|h|) and a per-channel affine, then 5
residual blocks with dilations 1, 2, 4, 8, 16, each a causal Conv1d(15, 30, 3, dilation=d) after
F.pad(left = 2 d) whose output is gated by F.glu(dim=1) in even blocks and by tanh(a) * sigmoid(b)
(chunk) in odd blocks, followed by a 1x1 residual conv (scaled by 1 / sqrt(2) after the add) and a
1x1 skip conv (15 -> 21) accumulated over blocks. Head: relu, 1x1 conv, relu, 1x1 conv to 7
classes per frame, and global mean + max pooled logits over time. Outputs: frame logits (B, 7, L),
pooled logits (B, 7), skip sum (B, 21, L)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, C, S, NCLS = 2, 2003, 15, 21, 7


class Model(nn.Module):
    def __init__(self, channels, skip, n_classes, dilations):
        super().__init__()
        self.fb = nn.Conv1d(1, channels, 11, stride=5)
        self.fb_scale = nn.Parameter(torch.ones(channels, 1))
        self.fb_shift = nn.Parameter(torch.zeros(channels, 1))
        self.dil = nn.ModuleList([nn.Conv1d(channels, 2 * channels, 3, dilation=d) for d in dilations])
        self.res = nn.ModuleList([nn.Conv1d(channels, channels, 1) for _ in dilations])
        self.skip = nn.ModuleList([nn.Conv1d(channels, skip, 1) for _ in dilations])
        self.head1 = nn.Conv1d(skip, skip, 1)
        self.head2 = nn.Conv1d(skip, n_classes, 1)
        self.dilations = dilations

    def forward(self, x):
        h = self.fb(x)
        h = torch.log1p(h.abs()) * self.fb_scale + self.fb_shift
        skip_sum = None
        for i, d in enumerate(self.dilations):
            z = self.dil[i](F.pad(h, (2 * d, 0)))
            if i % 2 == 0:
                g = F.glu(z, dim=1)
            else:
                a, b = z.chunk(2, dim=1)
                g = torch.tanh(a) * torch.sigmoid(b)
            h = (h + self.res[i](g)) * (1.0 / math.sqrt(2.0))
            s = self.skip[i](g)
            skip_sum = s if skip_sum is None else skip_sum + s
        y = self.head2(F.relu(self.head1(F.relu(skip_sum))))
        pooled = y.mean(dim=2) + y.amax(dim=2)
        return y, pooled, skip_sum


def get_inputs():
    return [torch.randn(B, 1, T)]


def get_init_inputs():
    return [C, S, NCLS, [1, 2, 4, 8, 16]]

"""Two bmm anchors with an attention-like chain between them and an epilogue after.
a = randn(3, 19, 23), b = randn(3, 23, 29), v = randn(3, 29, 13).
s = bmm(a, b) (3, 19, 29) * scale (Python float 0.2) + (1, 29) per-key bias -> softmax(dim=-1);
o = bmm(s, v) (3, 19, 13) + (1, 13) per-feature bias -> tanh;
out = o.sum(dim=1, keepdim=True) (3, 1, 13).
Outputs: out (3, 1, 13), s.amax(dim=-1) (3, 19)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, keys, feats, scale):
        super().__init__()
        self.key_bias = nn.Parameter(0.5 * torch.randn(1, keys))
        self.feat_bias = nn.Parameter(0.2 * torch.randn(1, feats))
        self.scale = scale

    def forward(self, a, b, v):
        s = torch.bmm(a, b) * self.scale + self.key_bias
        s = torch.softmax(s, dim=-1)
        o = torch.tanh(torch.bmm(s, v) + self.feat_bias)
        return o.sum(dim=1, keepdim=True), s.amax(dim=-1)


def get_inputs():
    return [torch.randn(3, 19, 23), torch.randn(3, 23, 29), torch.randn(3, 29, 13)]


def get_init_inputs():
    return [29, 13, 0.2]

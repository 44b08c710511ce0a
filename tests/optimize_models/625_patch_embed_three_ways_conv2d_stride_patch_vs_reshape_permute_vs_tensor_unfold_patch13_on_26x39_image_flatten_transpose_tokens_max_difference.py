"""Non-overlapping patch embedding (patch 13 on a 26x39 image, 2x3 grid) computed three ways:
conv2d with stride = kernel = patch then flatten(2).transpose(1, 2); reshape (B, C, gh, p, gw, p) +
permute(0, 2, 4, 1, 3, 5) + reshape to (B, L, C*p*p) matmul the flattened conv weight transposed;
Tensor.unfold on dims 2 and 3 (B, C, gh, gw, p, p) + permute(0, 2, 3, 1, 4, 5) + reshape + F.linear.
Outputs: the three token tensors and the max absolute difference between the paths (tuple)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W = 2, 3, 26, 39
P = 13
D = 20


class Model(nn.Module):
    def __init__(self, in_ch, patch, dim):
        super().__init__()
        self.patch = patch
        self.weight = nn.Parameter(torch.randn(dim, in_ch, patch, patch) * 0.05)
        self.bias = nn.Parameter(torch.randn(dim) * 0.1)

    def forward(self, x):
        b, c, h, w = x.shape
        p = self.patch
        gh, gw = h // p, w // p
        t_conv = F.conv2d(x, self.weight, self.bias, stride=p).flatten(2).transpose(1, 2)
        wf = self.weight.reshape(self.weight.shape[0], -1)
        t_resh = (
            x.reshape(b, c, gh, p, gw, p).permute(0, 2, 4, 1, 3, 5).reshape(b, gh * gw, c * p * p)
            @ wf.t()
            + self.bias
        )
        u = x.unfold(2, p, p).unfold(3, p, p)  # (B, C, gh, gw, p, p)
        t_unf = F.linear(u.permute(0, 2, 3, 1, 4, 5).reshape(b, gh * gw, c * p * p), wf, self.bias)
        diff = torch.maximum((t_conv - t_resh).abs().amax(), (t_conv - t_unf).abs().amax())
        return t_conv, t_resh, t_unf, diff


def get_inputs():
    return [torch.randn(B, C, H, W)]


def get_init_inputs():
    return [C, P, D]

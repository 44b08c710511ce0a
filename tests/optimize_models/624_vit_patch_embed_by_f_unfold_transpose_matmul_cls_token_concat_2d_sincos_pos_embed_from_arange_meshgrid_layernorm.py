"""ViT patch embedding with F.unfold: unfold (kernel = stride = 7) on a 28x35 image gives a 4x5 grid
of 147-dim patches, transpose(1, 2) (non-contiguous) then matmul with a (147, D) weight plus bias.
A learned cls token is expanded over the batch and concatenated in front (21 tokens). A 2-D sin-cos
position embedding is built in forward from arange / meshgrid (omega = 1 / 10000 ** (i / (D / 4)),
sin / cos of the row and column coordinates concatenated), with a zero row for the cls token, added,
then LayerNorm. Outputs: normalised tokens and the position embedding."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W = 2, 3, 28, 35
P = 7
D = 32


def sincos_2d(gh, gw, dim):
    q = dim // 4
    omega = 1.0 / (10000.0 ** (torch.arange(q, dtype=torch.float32) / q))
    gy, gx = torch.meshgrid(
        torch.arange(gh, dtype=torch.float32), torch.arange(gw, dtype=torch.float32), indexing="ij"
    )
    oy = gy.reshape(-1, 1) * omega.reshape(1, -1)
    ox = gx.reshape(-1, 1) * omega.reshape(1, -1)
    return torch.cat([torch.sin(oy), torch.cos(oy), torch.sin(ox), torch.cos(ox)], dim=1)


class Model(nn.Module):
    def __init__(self, in_ch, patch, dim):
        super().__init__()
        self.patch = patch
        self.dim = dim
        self.weight = nn.Parameter(torch.randn(in_ch * patch * patch, dim) * 0.1)
        self.bias = nn.Parameter(torch.randn(dim) * 0.1)
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim))
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        b = x.shape[0]
        gh = x.shape[2] // self.patch
        gw = x.shape[3] // self.patch
        cols = F.unfold(x, kernel_size=self.patch, stride=self.patch)  # (B, C*P*P, L)
        tok = cols.transpose(1, 2) @ self.weight + self.bias  # (B, L, D)
        cls = self.cls_token.expand(b, -1, -1)
        tok = torch.cat([cls, tok], dim=1)
        pos = sincos_2d(gh, gw, self.dim)
        pos = torch.cat([torch.zeros(1, self.dim), pos], dim=0)
        tok = tok + pos.unsqueeze(0)
        return self.norm(tok), pos


def get_inputs():
    return [torch.randn(B, C, H, W)]


def get_init_inputs():
    return [C, P, D]

"""ViT patch embedding: Conv2d (3 -> 45, kernel = stride = 4, bias) on a (2, 3, 28, 20)
image gives a 7x5 grid, .flatten(2).transpose(1, 2) to (2, 35, 45) tokens, a learned class
token (1, 1, 45) expanded over the batch and concatenated in front (36 tokens), a learned
position embedding (1, 36, 45) added, LayerNorm(45).
Input (2, 3, 28, 20); output (2, 36, 45)."""

import torch
import torch.nn as nn

N, C_IN, H, W, PATCH, DIM = 2, 3, 28, 20, 4, 45
NUM_PATCHES = (H // PATCH) * (W // PATCH)


class Model(nn.Module):
    def __init__(self, c_in, dim, patch, num_patches):
        super().__init__()
        self.proj = nn.Conv2d(c_in, dim, kernel_size=patch, stride=patch)
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim) * 0.5)
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches + 1, dim) * 0.5)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1)
        x = x + self.pos_embed
        return self.norm(x)


def get_inputs():
    return [torch.randn(N, C_IN, H, W)]


def get_init_inputs():
    return [C_IN, DIM, PATCH, NUM_PATCHES]

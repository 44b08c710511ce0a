"""ViT position-embedding resize for a non-square input: a learned (1, 1 + 49, D) position embedding
for a 7x7 grid is split into cls / grid parts, the grid part reshaped to (1, 7, 7, D), permuted to
(1, D, 7, 7), F.interpolate bicubic (align_corners=False) to the 5x9 patch grid of a 20x36 image
(conv2d patch embed, stride 4), permuted / flattened back and concatenated with the cls entry. Tokens:
cls + 45 patches + pos, then 4 learned register tokens inserted after cls (DINOv2 style), LayerNorm,
a GELU-tanh MLP residual scaled by a per-channel layer scale; the registers are sliced off again.
Outputs: patch tokens (B, 45, D), cls token, mean over patch tokens (tuple)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, CIN, H, W = 2, 3, 20, 36
P, D, G0, REGS = 4, 24, 7, 4


class Model(nn.Module):
    def __init__(self, cin, patch, dim, g0, regs):
        super().__init__()
        self.patch, self.g0, self.regs = patch, g0, regs
        self.proj = nn.Conv2d(cin, dim, patch, stride=patch)
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim))
        self.registers = nn.Parameter(torch.randn(1, regs, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, 1 + g0 * g0, dim) * 0.5)
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 2 * dim)
        self.fc2 = nn.Linear(2 * dim, dim)
        self.ls = nn.Parameter(torch.full((dim,), 0.3))

    def forward(self, x):
        b = x.shape[0]
        gh, gw = x.shape[2] // self.patch, x.shape[3] // self.patch
        t = self.proj(x).flatten(2).transpose(1, 2)  # (B, gh*gw, D)
        d = t.shape[-1]
        cls_pos = self.pos_embed[:, :1]
        grid = self.pos_embed[:, 1:].reshape(1, self.g0, self.g0, d).permute(0, 3, 1, 2)
        grid = F.interpolate(grid, size=(gh, gw), mode="bicubic", align_corners=False)
        grid = grid.permute(0, 2, 3, 1).reshape(1, gh * gw, d)
        pos = torch.cat([cls_pos, grid], dim=1)
        t = torch.cat([self.cls_token.expand(b, -1, -1), t], dim=1) + pos
        t = torch.cat([t[:, :1], self.registers.expand(b, -1, -1), t[:, 1:]], dim=1)
        t = t + self.ls * self.fc2(F.gelu(self.fc1(self.norm(t)), approximate="tanh"))
        cls = t[:, 0]
        patches = t[:, 1 + self.regs:]
        return patches, cls, patches.mean(dim=1)


def get_inputs():
    return [torch.randn(B, CIN, H, W)]


def get_init_inputs():
    return [CIN, P, D, G0, REGS]

"""ViT encoder as timm writes it, one block: a learned cls token (1, 1, 60) expanded to the
batch and torch.cat in front of 16 patch tokens, + learned (1, 17, 60) position embedding,
then a pre-norm block x = x + attn(norm1(x)); x = x + mlp(norm2(x)) with hand-written
multi-head self-attention: fused qkv nn.Linear(60 -> 180), reshape(B, N, 3, 5, 12).permute(2,
0, 3, 1, 4), q * head_dim ** -0.5, q @ k.transpose(-2, -1), softmax(dim=-1), @ v,
transpose(1, 2).reshape(B, N, C), proj nn.Linear; MLP nn.Linear(60 -> 240) -> nn.GELU ->
nn.Linear(240 -> 60); final nn.LayerNorm(eps=1e-6) and the cls output x[:, 0].
Input patch tokens (3, 16, 60); outputs (3, 60) cls features and (3, 17, 60) tokens."""

import torch
import torch.nn as nn

B, NUM_PATCHES, DIM, HEADS, MLP_RATIO = 3, 16, 60, 5, 4.0


class Attention(nn.Module):
    def __init__(self, dim, num_heads=8, qkv_bias=True):
        super().__init__()
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        q = q * self.scale
        attn = q @ k.transpose(-2, -1)
        attn = attn.softmax(dim=-1)
        x = attn @ v
        x = x.transpose(1, 2).reshape(B, N, C)
        x = self.proj(x)
        return x


class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden_features, in_features)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Block(nn.Module):
    def __init__(self, dim, num_heads, mlp_ratio):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.attn = Attention(dim, num_heads=num_heads)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = Mlp(dim, int(dim * mlp_ratio))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        x = x + self.mlp(self.norm2(x))
        return x


class Model(nn.Module):
    def __init__(self, num_patches, dim, num_heads, mlp_ratio):
        super().__init__()
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches + 1, dim) * 0.02)
        self.block = Block(dim, num_heads, mlp_ratio)
        self.norm = nn.LayerNorm(dim, eps=1e-6)

    def forward(self, x):
        cls_token = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls_token, x), dim=1)
        x = x + self.pos_embed
        x = self.block(x)
        x = self.norm(x)
        return x[:, 0], x


def get_inputs():
    return [torch.randn(B, NUM_PATCHES, DIM)]


def get_init_inputs():
    return [NUM_PATCHES, DIM, HEADS, MLP_RATIO]

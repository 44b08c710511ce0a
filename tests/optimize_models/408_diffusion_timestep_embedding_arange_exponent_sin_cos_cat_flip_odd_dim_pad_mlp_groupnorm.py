"""Diffusion (diffusers get_timestep_embedding + TimestepEmbedding) time conditioning of a UNet
ResNet block. int64 timesteps (7,) in [0, 1000); x (7, 16, 9, 11). In forward: half = 16,
exponent = -log(10000) * arange(0, 16, dtype=float32) / (16 - 1) (downscale_freq_shift 1), freqs =
exp(exponent); emb = timesteps[:, None].float() * freqs[None, :]; torch.cat([sin, cos], dim=-1)
(7, 32); flip_sin_to_cos by torch.cat([emb[:, 16:], emb[:, :16]], dim=-1); odd embedding dim 33
by F.pad(emb, (0, 1, 0, 0)) -> (7, 33). TimestepEmbedding Linear 33 -> 64, SiLU, Linear 64 -> 64;
ResNet time projection Linear 64 -> 16 of silu(temb), broadcast [:, :, None, None] add to x,
GroupNorm(4, 16) (random affine), SiLU. Outputs (7, 16, 9, 11) and temb (7, 64)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, H, W, EMB_DIM, TIME_DIM = 7, 16, 9, 11, 33, 64


def timestep_embedding(timesteps, dim, flip_sin_to_cos=True, shift=1.0, max_period=10000):
    half = dim // 2
    exponent = -math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32, device=timesteps.device)
    exponent = exponent / (half - shift)
    emb = torch.exp(exponent)
    emb = timesteps[:, None].float() * emb[None, :]
    emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=-1)
    if flip_sin_to_cos:
        emb = torch.cat([emb[:, half:], emb[:, :half]], dim=-1)
    if dim % 2 == 1:
        emb = F.pad(emb, (0, 1, 0, 0))
    return emb


class Model(nn.Module):
    def __init__(self, channels, emb_dim, time_dim):
        super().__init__()
        self.emb_dim = emb_dim
        self.linear_1 = nn.Linear(emb_dim, time_dim)
        self.linear_2 = nn.Linear(time_dim, time_dim)
        self.time_emb_proj = nn.Linear(time_dim, channels)
        self.norm = nn.GroupNorm(4, channels)
        with torch.no_grad():
            self.norm.weight.copy_(torch.rand(channels) + 0.5)
            self.norm.bias.copy_(torch.randn(channels) * 0.2)

    def forward(self, x, timesteps):
        t_emb = timestep_embedding(timesteps, self.emb_dim)
        temb = self.linear_2(F.silu(self.linear_1(t_emb)))
        h = x + self.time_emb_proj(F.silu(temb))[:, :, None, None]
        return F.silu(self.norm(h)), temb


def get_inputs():
    return [torch.randn(B, C, H, W), torch.randint(0, 1000, (B,), dtype=torch.int64)]


def get_init_inputs():
    return [C, EMB_DIM, TIME_DIM]

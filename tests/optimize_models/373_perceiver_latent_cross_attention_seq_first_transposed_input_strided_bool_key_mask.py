"""Perceiver-style latent cross-attention block fed non-contiguous inputs from get_inputs:
x is torch.randn(19, 3, 40).transpose(0, 1) (a sequence-first tensor viewed batch-first,
(3, 19, 40) with strides (40, 120, 1)) and keep is a bool key-padding mask (3, 19) taken as
a [:, ::2] step slice of a (3, 38) mask (key 0 always kept). 7 learned latents (7, 40)
expanded over the batch attend to nn.LayerNorm(x): q from nn.Linear(40 -> 40) of
LayerNorm(latents), k / v from nn.Linear(40 -> 80).chunk(2, dim=-1), 4 heads of 10 via
view + transpose(1, 2), (q * head_dim ** -0.5) @ k.transpose(-2, -1),
masked_fill(~keep[:, None, None, :], -inf), softmax, @ v, merge heads, out nn.Linear,
residual on the latents, then latents + MLP (LayerNorm, nn.Linear(40 -> 80), GELU,
nn.Linear(80 -> 40)). Output (3, 7, 40)."""

import torch
import torch.nn as nn

B, T, DIM, LATENTS, HEADS, MLP_HIDDEN = 3, 19, 40, 7, 4, 80


class Model(nn.Module):
    def __init__(self, dim, num_latents, heads, mlp_hidden):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.latents = nn.Parameter(torch.randn(num_latents, dim))
        self.norm_latents = nn.LayerNorm(dim)
        self.norm_context = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim, 2 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(
            nn.LayerNorm(dim),
            nn.Linear(dim, mlp_hidden),
            nn.GELU(),
            nn.Linear(mlp_hidden, dim),
        )

    def forward(self, x, keep):
        b, t, d = x.shape
        h = self.heads
        lat = self.latents.unsqueeze(0).expand(b, -1, -1)
        q = self.to_q(self.norm_latents(lat))
        k, v = self.to_kv(self.norm_context(x)).chunk(2, dim=-1)
        q = q.view(b, -1, h, d // h).transpose(1, 2)
        k = k.view(b, t, h, d // h).transpose(1, 2)
        v = v.view(b, t, h, d // h).transpose(1, 2)
        sim = (q * self.scale) @ k.transpose(-2, -1)
        sim = sim.masked_fill(~keep[:, None, None, :], float("-inf"))
        attn = sim.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, -1, d)
        lat = lat + self.to_out(out)
        lat = lat + self.mlp(lat)
        return lat


def get_inputs():
    x = torch.randn(T, B, DIM).transpose(0, 1)
    mask = torch.rand(B, 2 * T) > 0.3
    mask[:, 0] = True
    keep = mask[:, ::2]
    return [x, keep]


def get_init_inputs():
    return [DIM, LATENTS, HEADS, MLP_HIDDEN]

"""float16 two feed-forward sub-blocks with GLU variants on normalized tensors. Input x =
randn(2, 30, 24).half()[:, ::2] (2, 15, 24), a step-sliced float16 view; model in float16.
Block 1 (chunked feed-forward, as Reformer): h = LayerNorm(24)(x), torch.split(h, 4, dim=1)
gives sequence chunks of 4, 4, 4, 3 tokens; for each chunk Linear 24 -> 80, a, g = .chunk(2,
dim=-1), a * gelu(g, approximate='tanh') (GEGLU), Linear 40 -> 24; torch.cat of the chunks on
dim 1, x1 = x + ffn. Block 2: hand-written RMSNorm computed in float32 (x1.float() * rsqrt(mean
of squares + 1e-6)) cast back to float16 times a (24,) float16 weight; no-bias Linear 24 -> 74,
gate, up = .chunk(2, dim=-1) (37 each), relu(gate) * up (ReGLU), no-bias Linear 37 -> 24,
x2 = x1 + ffn. Outputs x2 and x1, both float16 (2, 15, 24)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, F1, F2, CHUNK = 2, 15, 24, 40, 37, 4


class Model(nn.Module):
    def __init__(self, dim, ff1, ff2, chunk):
        super().__init__()
        self.chunk = chunk
        self.norm1 = nn.LayerNorm(dim)
        self.wi = nn.Linear(dim, 2 * ff1)
        self.wo = nn.Linear(ff1, dim)
        self.norm2_weight = nn.Parameter(1.0 + 0.1 * torch.randn(dim))
        self.w12 = nn.Linear(dim, 2 * ff2, bias=False)
        self.w3 = nn.Linear(ff2, dim, bias=False)
        self.half()

    def forward(self, x):
        h = self.norm1(x)
        outs = []
        for part in torch.split(h, self.chunk, dim=1):
            a, g = self.wi(part).chunk(2, dim=-1)
            outs.append(self.wo(a * F.gelu(g, approximate="tanh")))
        x1 = x + torch.cat(outs, dim=1)

        xf = x1.float()
        h2 = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)).to(x1.dtype) * self.norm2_weight
        gate, up = self.w12(h2).chunk(2, dim=-1)
        x2 = x1 + self.w3(F.relu(gate) * up)
        return x2, x1


def get_inputs():
    return [torch.randn(B, 2 * T, D).half()[:, ::2]]


def get_init_inputs():
    return [D, F1, F2, CHUNK]

"""Normalisation variants side by side, one of them on a bfloat16 input as LLaMA writes it.
x float32 (2, 12, 13, 11); t bfloat16 (3, 17, 40).
a = nn.GroupNorm(1, 12)(x) (statistics over all of C, H, W per sample; affine (12,));
b = nn.GroupNorm(12, 12)(x) (one channel per group: instance-norm statistics, affine);
c = F.layer_norm(x.transpose(1, 3), (12,)) without weight or bias on the non-contiguous
(2, 11, 13, 12) view (normalises over channels per pixel), transposed back to (2, 12, 13, 11);
y = a + 0.5 * b - c, then SiLU.
LLaMA RMSNorm on t: h = t.to(float32); var = h.pow(2).mean(-1, keepdim=True);
h = h * torch.rsqrt(var + 1e-6); r = weight * h.to(bfloat16) with a bfloat16 (40,) weight.
Outputs: y float32 (2, 12, 13, 11), r bfloat16 (3, 17, 40) and var float32 (3, 17, 1)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 12, 13, 11
B, T, D = 3, 17, 40


class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter((1.0 + 0.2 * torch.randn(hidden_size)).to(torch.bfloat16))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype), variance


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gn_one = nn.GroupNorm(1, C)
        self.gn_all = nn.GroupNorm(C, C)
        with torch.no_grad():
            for gn in (self.gn_one, self.gn_all):
                gn.weight.copy_(1.0 + 0.2 * torch.randn(C))
                gn.bias.copy_(0.1 * torch.randn(C))
        self.rms = LlamaRMSNorm(D)

    def forward(self, x, t):
        a = self.gn_one(x)
        b = self.gn_all(x)
        c = F.layer_norm(x.transpose(1, 3), (C,)).transpose(1, 3)
        y = F.silu(a + 0.5 * b - c)
        r, var = self.rms(t)
        return y, r, var


def get_inputs():
    return [torch.randn(N, C, H, W), torch.randn(B, T, D).to(torch.bfloat16)]


def get_init_inputs():
    return []

"""ALiBi attention block with post-LayerNorm residuals (x = LN(x + sublayer(x))), written by hand.
x (3, 11, 42) hidden states, lengths int64 (3,) = [11, 6, 1] valid tokens per row (right padding).
ALiBi slopes for 6 heads (not a power of two): the 4-head geometric sequence 2^(-2 i), i = 1..4,
plus the odd entries (powers 1, 3) of the 8-head sequence 2^(-i); registered as a (6, 1, 1) buffer.
bias = slopes * (key_pos - query_pos) (negative for past keys), added to the scores.
Fused query_key_value Linear 42 -> 126 (bias), view(B, T, 6, 3, 7) and unbind(3) -> q, k, v
(BLOOM layout), head dim 7, each transposed to (B, 6, T, 7). scores = q @ k^T * 7^-0.5 + bias.
Mask: causal (key > query) OR key padding (key_pos >= lengths[b]) -> masked_fill(finfo.min);
softmax; @ v; dense 42 -> 42; x = LayerNorm(x + attn).
MLP: 42 -> 100 (bias) gelu 100 -> 42 (bias); x = LayerNorm(x + mlp).
Padded query rows are zeroed at the end (x * valid[..., None]).
Outputs: x (3, 11, 42), attention probabilities (3, 6, 11, 11)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HEADS, FF = 3, 11, 42, 6, 100


def alibi_slopes(n_heads):
    closest = 2 ** math.floor(math.log2(n_heads))
    base = 2.0 ** (-(2.0 ** -(math.log2(closest) - 3)))
    slopes = torch.pow(torch.tensor(base), torch.arange(1, 1 + closest, dtype=torch.float32))
    if closest != n_heads:
        extra_base = 2.0 ** (-(2.0 ** -(math.log2(2 * closest) - 3)))
        n_rem = min(closest, n_heads - closest)
        extra = torch.pow(torch.tensor(extra_base), torch.arange(1, 1 + 2 * n_rem, 2, dtype=torch.float32))
        slopes = torch.cat([slopes, extra], dim=0)
    return slopes


class Model(nn.Module):
    def __init__(self, dim, heads, ff):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.query_key_value = nn.Linear(dim, 3 * dim)
        self.dense = nn.Linear(dim, dim)
        self.ln_attn = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, ff)
        self.fc2 = nn.Linear(ff, dim)
        self.ln_mlp = nn.LayerNorm(dim)
        self.register_buffer("slopes", alibi_slopes(heads).view(heads, 1, 1))

    def forward(self, x, lengths):
        b, t, d = x.shape
        qkv = self.query_key_value(x).view(b, t, self.heads, 3, self.hd)
        q, k, v = qkv.unbind(3)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        pos = torch.arange(t, device=x.device)
        rel = (pos[None, :] - pos[:, None]).to(x.dtype)
        bias = self.slopes * rel
        scores = torch.matmul(q, k.transpose(-1, -2)) * (self.hd ** -0.5) + bias
        causal = pos[None, :] > pos[:, None]
        key_pad = pos[None, :] >= lengths[:, None]
        masked = causal[None, None, :, :] | key_pad[:, None, None, :]
        scores = scores.masked_fill(masked, torch.finfo(scores.dtype).min)
        probs = torch.softmax(scores, dim=-1)
        attn = torch.matmul(probs, v).transpose(1, 2).reshape(b, t, d)
        x = self.ln_attn(x + self.dense(attn))
        x = self.ln_mlp(x + self.fc2(F.gelu(self.fc1(x))))
        valid = (pos[None, :] < lengths[:, None]).to(x.dtype)
        return x * valid[..., None], probs


def get_inputs():
    return [torch.randn(B, T, D), torch.tensor([11, 6, 1], dtype=torch.int64)]


def get_init_inputs():
    return [D, HEADS, FF]

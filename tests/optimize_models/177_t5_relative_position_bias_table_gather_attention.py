"""T5-style attention with relative position bias: the bias table is an
nn.Parameter (num_buckets=32, heads=4); the (T, T) int64 bucket ids are computed once in
__init__ with T5's bidirectional bucketing (16 buckets per direction, 8 exact, the rest
log-spaced up to max_distance 128) and registered as a buffer; in forward
table[buckets] gives (T, T, H), permuted to (1, H, T, T) and added to the unscaled
scores q @ k^T (T5 does not divide by sqrt(d)) before softmax, then @ v.
q/k/v/o nn.Linear without bias (32 -> 32), 4 heads of 8.
Input (2, 15, 32); output (2, 15, 32). Bucket ids used: 0..9 (key at or before the query)
and 17..25 (key after); table rows 10..16 and 26..31 are never read."""

import math

import torch
import torch.nn as nn

B, T, D, H, NUM_BUCKETS, MAX_DISTANCE = 2, 15, 32, 4, 32, 128


def relative_position_bucket(relative_position, num_buckets, max_distance):
    num_buckets = num_buckets // 2
    buckets = (relative_position > 0).to(torch.long) * num_buckets
    n = relative_position.abs()
    max_exact = num_buckets // 2
    is_small = n < max_exact
    val_if_large = max_exact + (
        torch.log(n.float().clamp(min=1) / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    val_if_large = torch.minimum(val_if_large, torch.full_like(val_if_large, num_buckets - 1))
    return buckets + torch.where(is_small, n, val_if_large)


class Model(nn.Module):
    def __init__(self, dim, heads, seq_len, num_buckets, max_distance):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(dim, dim, bias=False)
        self.k = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.relative_attention_bias = nn.Parameter(torch.randn(num_buckets, heads))
        ctx = torch.arange(seq_len, dtype=torch.long)[:, None]
        mem = torch.arange(seq_len, dtype=torch.long)[None, :]
        self.register_buffer(
            "buckets", relative_position_bucket(mem - ctx, num_buckets, max_distance)
        )

    def forward(self, x):
        b, t, d = x.shape
        hd = d // self.heads
        q = self.q(x).view(b, t, self.heads, hd).transpose(1, 2)
        k = self.k(x).view(b, t, self.heads, hd).transpose(1, 2)
        v = self.v(x).view(b, t, self.heads, hd).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1))
        bias = self.relative_attention_bias[self.buckets]  # (T, T, H)
        bias = bias.permute(2, 0, 1).unsqueeze(0)  # (1, H, T, T)
        scores = scores + bias
        attn = torch.softmax(scores.float(), dim=-1).type_as(scores)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(b, t, d)
        return self.o(out)


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, H, T, NUM_BUCKETS, MAX_DISTANCE]

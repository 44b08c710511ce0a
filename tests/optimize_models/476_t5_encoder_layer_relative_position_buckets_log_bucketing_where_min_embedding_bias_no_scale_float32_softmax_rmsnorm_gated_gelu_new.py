"""One T5 (v1.1) encoder layer as Hugging Face writes it, with the bidirectional relative
position bias computed in forward.
hidden (2, 19, 32), lengths int64 (2,) = [19, 13] (padding mask for the keys).
Relative position bias: context = arange(19)[:, None], memory = arange(19)[None, :],
rel = memory - context (int64); bidirectional bucketing with num_buckets 16, max_distance 32:
buckets = (rel > 0).long() * 8, rel = abs(rel); is_small = rel < 4;
large = 4 + (log(rel.float() / 4) / log(32 / 4) * (8 - 4)).to(long) (log(0) = -inf is cast and
then discarded by the torch.where, as in the original code), large = torch.min(large, 7);
buckets += where(is_small, rel, large); nn.Embedding(16, 4 heads) -> permute(2, 0, 1).unsqueeze(0)
(1, 4, 19, 19) + extended mask (1 - mask)[:, None, None, :] * finfo(float32).min.
Self-attention (pre-norm): T5LayerNorm (RMS, variance in float32, no mean, no bias, eps 1e-6),
q/k/v Linear 32 -> 32 no bias, 4 heads of 8, scores = q @ k^T WITHOUT 1/sqrt(d) scaling, +=
position bias, softmax(scores.float(), dim=-1).type_as(scores), @ v, o Linear, residual.
Feed-forward (pre-norm): T5DenseGatedActDense, gelu_new (tanh approximation) of wi_0 (32 -> 45)
times wi_1 (32 -> 45), wo 45 -> 32, residual.
Outputs: hidden (2, 19, 32) and position_bias incl. mask (2, 4, 19, 19) (masked keys hold
about -3.4e38, finite)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HEADS, DKV, DFF = 2, 19, 32, 4, 8, 45
NUM_BUCKETS, MAX_DISTANCE = 16, 32


class T5LayerNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(d))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states


def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_attn = T5LayerNorm(D)
        self.q = nn.Linear(D, HEADS * DKV, bias=False)
        self.k = nn.Linear(D, HEADS * DKV, bias=False)
        self.v = nn.Linear(D, HEADS * DKV, bias=False)
        self.o = nn.Linear(HEADS * DKV, D, bias=False)
        self.relative_attention_bias = nn.Embedding(NUM_BUCKETS, HEADS)
        self.ln_ff = T5LayerNorm(D)
        self.wi_0 = nn.Linear(D, DFF, bias=False)
        self.wi_1 = nn.Linear(D, DFF, bias=False)
        self.wo = nn.Linear(DFF, D, bias=False)

    def compute_bias(self, q_len, k_len, device):
        context_position = torch.arange(q_len, dtype=torch.long, device=device)[:, None]
        memory_position = torch.arange(k_len, dtype=torch.long, device=device)[None, :]
        relative_position = memory_position - context_position
        buckets = relative_position_bucket(
            relative_position, bidirectional=True, num_buckets=NUM_BUCKETS, max_distance=MAX_DISTANCE
        )
        values = self.relative_attention_bias(buckets)
        return values.permute([2, 0, 1]).unsqueeze(0)

    def forward(self, hidden, lengths):
        bsz, seq, _ = hidden.shape
        mask = (torch.arange(seq, device=hidden.device)[None, :] < lengths[:, None]).to(hidden.dtype)
        ext = (1.0 - mask)[:, None, None, :] * torch.finfo(hidden.dtype).min
        position_bias = self.compute_bias(seq, seq, hidden.device) + ext

        x = self.ln_attn(hidden)

        def shape(t):
            return t.view(bsz, -1, HEADS, DKV).transpose(1, 2)

        q, k, v = shape(self.q(x)), shape(self.k(x)), shape(self.v(x))
        scores = torch.matmul(q, k.transpose(3, 2))
        scores = scores + position_bias
        attn = F.softmax(scores.float(), dim=-1).type_as(scores)
        ctx = torch.matmul(attn, v).transpose(1, 2).contiguous().view(bsz, -1, HEADS * DKV)
        hidden = hidden + self.o(ctx)

        x = self.ln_ff(hidden)
        gelu = F.gelu(self.wi_0(x), approximate="tanh")
        hidden = hidden + self.wo(gelu * self.wi_1(x))
        return hidden, position_bias


def get_inputs():
    return [torch.randn(B, T, D), torch.tensor([19, 13], dtype=torch.int64)]


def get_init_inputs():
    return []

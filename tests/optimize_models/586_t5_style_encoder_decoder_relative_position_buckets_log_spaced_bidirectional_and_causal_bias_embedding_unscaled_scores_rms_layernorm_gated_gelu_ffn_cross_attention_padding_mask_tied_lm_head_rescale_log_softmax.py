"""A tiny T5-style encoder-decoder (one block each), written by hand.
enc_ids int64 (2, 13) in [0, 67), enc_lengths int64 (2,) = [13, 8], dec_ids int64 (2, 7).
Shared Embedding(67, 40). T5LayerNorm: weight * x * rsqrt(mean(x.float()^2) + 1e-6) (no mean, no bias).
Attention: q / k / v 40 -> 48 (4 heads of d_kv 12), o 48 -> 40, no biases, NO 1 / sqrt(d) scaling.
Relative position bias (computed in forward from arange): T5 bucket function, 32 buckets, max distance
20; bidirectional in the encoder (16 buckets per sign, (rel > 0) * 16 offset, abs), causal in the decoder
(-min(rel, 0)); exact buckets below max_exact (8 encoder, 16 decoder), log-spaced above
(log(rel / 8) / log(20 / 8) * 8, to long, min with 15; distances 8..12 in the encoder; the log(0)
lane is computed and discarded by torch.where(is_small, ...)); nn.Embedding(32, 4) -> permute ->
(1, 4, Tq, Tk).
Masks are additive: (1 - keep) * finfo.min; encoder key padding from enc_lengths; decoder causal from
arange comparisons; cross-attention uses the encoder key padding and no position bias.
Encoder: x + SelfAttn(LN(x)) with bias + padding mask; x + FFN(LN(x)); final LN.
Decoder: x + SelfAttn(LN(x)) with causal bias + causal mask; x + CrossAttn(LN(x), enc);
x + FFN(LN(x)); final LN. FFN gated-gelu: wo(gelu_tanh(wi_0(x)) * wi_1(x)), 40 -> 88 -> 40.
LM head tied to the shared embedding after rescaling by 40^-0.5; log_softmax.
Outputs: log_probs (2, 7, 67), encoder output (2, 13, 40)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T_ENC, T_DEC, VOCAB, D, HEADS, D_KV, FF, NUM_BUCKETS, MAX_DIST = 2, 13, 7, 67, 40, 4, 12, 88, 32, 20


def relative_position_bucket(relative_position, bidirectional, num_buckets, max_distance):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    if_large = torch.min(if_large, torch.full_like(if_large, num_buckets - 1))
    relative_buckets += torch.where(is_small, relative_position, if_large)
    return relative_buckets


class T5LayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(dim))
        self.eps = eps

    def forward(self, x):
        variance = x.to(torch.float32).pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(variance + self.eps)
        return self.weight * x


class Attention(nn.Module):
    def __init__(self, dim, heads, d_kv, has_bias, bidirectional):
        super().__init__()
        self.heads, self.d_kv, self.bidirectional = heads, d_kv, bidirectional
        self.q = nn.Linear(dim, heads * d_kv, bias=False)
        self.k = nn.Linear(dim, heads * d_kv, bias=False)
        self.v = nn.Linear(dim, heads * d_kv, bias=False)
        self.o = nn.Linear(heads * d_kv, dim, bias=False)
        self.rel_bias = nn.Embedding(NUM_BUCKETS, heads) if has_bias else None

    def position_bias(self, tq, tk, device):
        ctx = torch.arange(tq, dtype=torch.long, device=device)[:, None]
        mem = torch.arange(tk, dtype=torch.long, device=device)[None, :]
        buckets = relative_position_bucket(mem - ctx, self.bidirectional, NUM_BUCKETS, MAX_DIST)
        return self.rel_bias(buckets).permute(2, 0, 1).unsqueeze(0)

    def forward(self, x, kv, mask):
        b, tq, _ = x.shape
        tk = kv.shape[1]
        q = self.q(x).view(b, tq, self.heads, self.d_kv).transpose(1, 2)
        k = self.k(kv).view(b, tk, self.heads, self.d_kv).transpose(1, 2)
        v = self.v(kv).view(b, tk, self.heads, self.d_kv).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(3, 2))
        bias = mask
        if self.rel_bias is not None:
            bias = self.position_bias(tq, tk, x.device) + mask
        scores = scores + bias
        probs = F.softmax(scores.float(), dim=-1).type_as(scores)
        o = torch.matmul(probs, v).transpose(1, 2).reshape(b, tq, self.heads * self.d_kv)
        return self.o(o)


class FFN(nn.Module):
    def __init__(self, dim, ff):
        super().__init__()
        self.wi_0 = nn.Linear(dim, ff, bias=False)
        self.wi_1 = nn.Linear(dim, ff, bias=False)
        self.wo = nn.Linear(ff, dim, bias=False)

    def forward(self, x):
        return self.wo(F.gelu(self.wi_0(x), approximate="tanh") * self.wi_1(x))


class Model(nn.Module):
    def __init__(self, vocab, dim, heads, d_kv, ff):
        super().__init__()
        self.dim = dim
        self.shared = nn.Embedding(vocab, dim)
        self.enc_ln1, self.enc_ln2, self.enc_final = T5LayerNorm(dim), T5LayerNorm(dim), T5LayerNorm(dim)
        self.enc_attn = Attention(dim, heads, d_kv, True, True)
        self.enc_ffn = FFN(dim, ff)
        self.dec_ln1, self.dec_ln2, self.dec_ln3 = T5LayerNorm(dim), T5LayerNorm(dim), T5LayerNorm(dim)
        self.dec_final = T5LayerNorm(dim)
        self.dec_self = Attention(dim, heads, d_kv, True, False)
        self.dec_cross = Attention(dim, heads, d_kv, False, True)
        self.dec_ffn = FFN(dim, ff)

    def forward(self, enc_ids, enc_lengths, dec_ids):
        b, te = enc_ids.shape
        td = dec_ids.shape[1]
        x = self.shared(enc_ids)
        min_val = torch.finfo(x.dtype).min
        keep_enc = (torch.arange(te, device=x.device)[None, :] < enc_lengths[:, None]).to(x.dtype)
        enc_mask = (1.0 - keep_enc[:, None, None, :]) * min_val
        h = self.enc_ln1(x)
        x = x + self.enc_attn(h, h, enc_mask)
        x = x + self.enc_ffn(self.enc_ln2(x))
        enc = self.enc_final(x)

        y = self.shared(dec_ids)
        pos = torch.arange(td, device=x.device)
        keep_causal = (pos[None, :] <= pos[:, None]).to(y.dtype)
        causal_mask = ((1.0 - keep_causal) * min_val)[None, None]
        h = self.dec_ln1(y)
        y = y + self.dec_self(h, h, causal_mask)
        y = y + self.dec_cross(self.dec_ln2(y), enc, enc_mask)
        y = y + self.dec_ffn(self.dec_ln3(y))
        y = self.dec_final(y) * (self.dim ** -0.5)
        logits = F.linear(y, self.shared.weight)
        return F.log_softmax(logits, dim=-1), enc


def get_inputs():
    return [
        torch.randint(0, VOCAB, (B, T_ENC), dtype=torch.int64),
        torch.tensor([13, 8], dtype=torch.int64),
        torch.randint(0, VOCAB, (B, T_DEC), dtype=torch.int64),
    ]


def get_init_inputs():
    return [VOCAB, D, HEADS, D_KV, FF]

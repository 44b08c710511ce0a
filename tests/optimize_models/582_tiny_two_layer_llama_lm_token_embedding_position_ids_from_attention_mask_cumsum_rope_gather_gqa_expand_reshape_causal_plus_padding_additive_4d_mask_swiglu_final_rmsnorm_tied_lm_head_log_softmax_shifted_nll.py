"""A tiny two-layer Llama-style language model, end to end, written by hand.
input_ids int64 (2, 11) in [0, 101); attention_mask int64 (2, 11) = row 0 all ones, row 1 eight ones
then three zeros (right padding).
Embedding(101, 48). position_ids = attention_mask.cumsum(-1) - 1, masked_fill(attention_mask == 0, 1).
Additive 4-D mask (B, 1, T, T): zeros masked_fill(causal (key > query) | key padding, finfo.min).
Each of 2 layers (pre-norm): RMSNorm (hand-written) -> q_proj 48 -> 48 (4 heads of 12), k_proj /
v_proj 48 -> 24 (2 KV heads), no biases; cos / sin cache buffers (64, 12) gathered by position_ids
-> (B, 1, T, 12); rotate_half RoPE; repeat_kv via k[:, :, None].expand(...).reshape(...);
scores / sqrt(12) + mask, softmax float32, @ v, o_proj, residual; RMSNorm -> SwiGLU 48 -> 84 -> 48,
residual.
Final RMSNorm, LM head tied to the embedding weight (F.linear(h, embed.weight)), log_softmax.
Loss: next-token NLL, gather(log_probs[:, :-1], input_ids[:, 1:]), weighted by attention_mask[:, 1:],
sum / number of valid targets.
Outputs: log_probs (2, 11, 101), loss (0-dim)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, VOCAB, D, HEADS, KV_HEADS, FF, LAYERS, MAX_POS = 2, 11, 101, 48, 4, 2, 84, 2, 64


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(dim))
        self.eps = eps

    def forward(self, x):
        h = x.float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * h.to(x.dtype)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def repeat_kv(x, n_rep):
    b, kvh, t, hd = x.shape
    if n_rep == 1:
        return x
    return x[:, :, None, :, :].expand(b, kvh, n_rep, t, hd).reshape(b, kvh * n_rep, t, hd)


class Layer(nn.Module):
    def __init__(self, dim, heads, kv_heads, ff):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, dim // heads
        self.input_layernorm = RMSNorm(dim)
        self.post_attention_layernorm = RMSNorm(dim)
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.o_proj = nn.Linear(dim, dim, bias=False)
        self.gate_proj = nn.Linear(dim, ff, bias=False)
        self.up_proj = nn.Linear(dim, ff, bias=False)
        self.down_proj = nn.Linear(ff, dim, bias=False)

    def forward(self, x, cos, sin, mask):
        b, t, d = x.shape
        h = self.input_layernorm(x)
        q = self.q_proj(h).view(b, t, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = repeat_kv(k, self.heads // self.kv_heads)
        v = repeat_kv(v, self.heads // self.kv_heads)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.hd) + mask
        probs = F.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        o = torch.matmul(probs, v).transpose(1, 2).reshape(b, t, d)
        x = x + self.o_proj(o)
        h = self.post_attention_layernorm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


class Model(nn.Module):
    def __init__(self, vocab, dim, heads, kv_heads, ff, layers, max_pos):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([Layer(dim, heads, kv_heads, ff) for _ in range(layers)])
        self.norm = RMSNorm(dim)
        hd = dim // heads
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, hd, 2).float() / hd))
        freqs = torch.outer(torch.arange(max_pos).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, input_ids, attention_mask):
        b, t = input_ids.shape
        x = self.embed_tokens(input_ids)
        position_ids = attention_mask.long().cumsum(-1) - 1
        position_ids = position_ids.masked_fill(attention_mask == 0, 1)
        cos = self.cos_cached[position_ids].unsqueeze(1).to(x.dtype)
        sin = self.sin_cached[position_ids].unsqueeze(1).to(x.dtype)
        idx = torch.arange(t, device=input_ids.device)
        causal = idx[None, :] > idx[:, None]
        masked = causal[None, None] | (attention_mask == 0)[:, None, None, :]
        mask = torch.zeros(b, 1, t, t, dtype=x.dtype, device=x.device)
        mask = mask.masked_fill(masked, torch.finfo(x.dtype).min)
        for layer in self.layers:
            x = layer(x, cos, sin, mask)
        h = self.norm(x)
        logits = F.linear(h, self.embed_tokens.weight)
        log_probs = F.log_softmax(logits.float(), dim=-1)
        targets = input_ids[:, 1:]
        nll = -log_probs[:, :-1].gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        w = attention_mask[:, 1:].to(nll.dtype)
        loss = (nll * w).sum() / w.sum()
        return log_probs, loss


def get_inputs():
    input_ids = torch.randint(0, VOCAB, (B, T), dtype=torch.int64)
    attention_mask = torch.ones(B, T, dtype=torch.int64)
    attention_mask[1, 8:] = 0
    return [input_ids, attention_mask]


def get_init_inputs():
    return [VOCAB, D, HEADS, KV_HEADS, FF, LAYERS, MAX_POS]

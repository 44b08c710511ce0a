"""Gemma-2-style decoder layer plus final norm and LM head, written by hand.
x (2, 13, 40) hidden states.
RMSNorm (Gemma): h = x.float() * rsqrt(mean(x^2) + 1e-6) * (1 + weight.float()), cast back; weights
start near zero. Sandwich norms: x = x + post_attention_norm(attn(input_norm(x))) and
x = x + post_feedforward_norm(mlp(pre_feedforward_norm(x))).
Attention: q_proj 40 -> 80 (4 heads of 20; heads * head_dim != hidden), k_proj / v_proj 40 -> 40
(2 KV heads of 20), o_proj 80 -> 40, no biases. Rotary angles computed in forward as
(inv_freq[None, :, None] @ positions[None, None, :].float()).transpose(1, 2), emb = cat(f, f),
cos / sin, rotate_half (cat(-x2, x1)). GQA by index_select(dim=1) with an int64 kv_map buffer
[0, 0, 1, 1]. q scaled by query_pre_attn_scalar^-0.5 = 16^-0.5 (not head_dim). Scores soft-capped
tanh(s / 5) * 5, then sliding-window causal mask (keep 0 <= i - j < 5) via masked_fill(finfo.min);
softmax in float32, cast back; @ v.
MLP GeGLU: down(gelu_tanh(gate(x)) * up(x)), 40 -> 72 -> 40, no biases.
Final RMSNorm, lm_head 40 -> 53 (no bias), final logit softcap tanh(l / 3) * 3.
Outputs: logits (2, 13, 53), hidden (2, 13, 40)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HEADS, KV_HEADS, HD, FF, VOCAB = 2, 13, 40, 4, 2, 20, 72, 53


class GemmaRMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(0.1 * torch.randn(dim))

    def forward(self, x):
        h = x.float()
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        h = h * (1.0 + self.weight.float())
        return h.type_as(x)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Model(nn.Module):
    def __init__(self, dim, heads, kv_heads, hd, ff, vocab, window, attn_cap, final_cap, qscalar):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, hd
        self.window, self.attn_cap, self.final_cap = window, attn_cap, final_cap
        self.scaling = qscalar ** -0.5
        self.input_norm = GemmaRMSNorm(dim)
        self.post_attention_norm = GemmaRMSNorm(dim)
        self.pre_feedforward_norm = GemmaRMSNorm(dim)
        self.post_feedforward_norm = GemmaRMSNorm(dim)
        self.final_norm = GemmaRMSNorm(dim)
        self.q_proj = nn.Linear(dim, heads * hd, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * hd, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * hd, bias=False)
        self.o_proj = nn.Linear(heads * hd, dim, bias=False)
        self.gate_proj = nn.Linear(dim, ff, bias=False)
        self.up_proj = nn.Linear(dim, ff, bias=False)
        self.down_proj = nn.Linear(ff, dim, bias=False)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.register_buffer("inv_freq", 1.0 / (10000.0 ** (torch.arange(0, hd, 2).float() / hd)))
        self.register_buffer("kv_map", torch.arange(heads, dtype=torch.int64) // (heads // kv_heads))

    def attention(self, x):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        positions = torch.arange(t, device=x.device)
        freqs = (self.inv_freq[None, :, None] @ positions[None, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().to(x.dtype)[:, None], emb.sin().to(x.dtype)[:, None]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = k.index_select(1, self.kv_map)
        v = v.index_select(1, self.kv_map)
        scores = torch.matmul(q * self.scaling, k.transpose(2, 3))
        scores = torch.tanh(scores / self.attn_cap) * self.attn_cap
        diff = positions[:, None] - positions[None, :]
        keep = (diff >= 0) & (diff < self.window)
        scores = scores.masked_fill(~keep, torch.finfo(scores.dtype).min)
        probs = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        o = torch.matmul(probs, v).transpose(1, 2).reshape(b, t, self.heads * self.hd)
        return self.o_proj(o)

    def forward(self, x):
        x = x + self.post_attention_norm(self.attention(self.input_norm(x)))
        h = self.pre_feedforward_norm(x)
        h = self.down_proj(F.gelu(self.gate_proj(h), approximate="tanh") * self.up_proj(h))
        x = x + self.post_feedforward_norm(h)
        logits = self.lm_head(self.final_norm(x))
        logits = torch.tanh(logits / self.final_cap) * self.final_cap
        return logits, x


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, HEADS, KV_HEADS, HD, FF, VOCAB, 5, 5.0, 3.0, 16.0]

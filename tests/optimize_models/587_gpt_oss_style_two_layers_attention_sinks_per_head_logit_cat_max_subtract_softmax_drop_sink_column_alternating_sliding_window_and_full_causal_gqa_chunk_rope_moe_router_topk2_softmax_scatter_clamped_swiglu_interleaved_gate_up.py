"""gpt-oss-style two-layer decoder, written by hand: attention sinks, alternating sliding-window / full
causal attention, and a top-2 mixture-of-experts MLP with the clamped interleaved SwiGLU.
x (2, 13, 44) hidden states.
Each layer: RMSNorm (hand-written) -> q_proj 44 -> 48 (4 heads of 12), k_proj / v_proj 44 -> 24
(2 KV heads of 12), all with biases; o_proj 48 -> 44 (bias). RoPE by halves via chunk(2, dim=-1):
(x1 * cos - x2 * sin, x2 * cos + x1 * sin) cat, cos / sin (13, 6) from an inv_freq buffer.
GQA: k / v repeat_interleave(2, dim=1). scores = q @ k^T * 12^-0.5, masked_fill(finfo.min) with
layer 0: sliding window (keep 0 <= i - j < 4), layer 1: full causal (keep j <= i).
Attention sinks: learned per-head logit sinks (4,) reshaped (1, 4, 1, 1), expanded to (B, 4, T, 1),
cat as an extra key column; minus the row max (keepdim); softmax; drop the sink column ([..., :-1]).
@ v, o_proj, residual.
MoE (pre RMSNorm): router Linear 44 -> 4 experts (bias); topk(2) over experts; softmax of the top-2
logits; dense weights via zeros(N, 4).scatter(1, idx, w). All experts run: gate_up = einsum('nd,edf->nef')
with (4, 44, 72) + bias (4, 72); gate = gate_up[..., ::2].clamp(max=2), up = gate_up[..., 1::2].clamp(-2, 2);
glu = gate * sigmoid(1.702 * gate); h = (up + 1) * glu; down einsum('nef,efd->ned') with (4, 36, 44)
+ bias (4, 44); weighted sum over experts; residual.
Final RMSNorm. Outputs: x (2, 13, 44), router probabilities softmax(router logits) of layer 1 (26, 4)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, HEADS, KV_HEADS, HD, EXPERTS, TOP_K, FF, WINDOW = 2, 13, 44, 4, 2, 12, 4, 2, 36, 4


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.scale = nn.Parameter(1.0 + 0.1 * torch.randn(dim))
        self.eps = eps

    def forward(self, x):
        t = x.float()
        t = t * torch.rsqrt(torch.mean(t ** 2, dim=-1, keepdim=True) + self.eps)
        return (t * self.scale).to(x.dtype)


def apply_rotary(x, cos, sin):
    x1, x2 = torch.chunk(x, 2, dim=-1)
    o1 = x1 * cos - x2 * sin
    o2 = x2 * cos + x1 * sin
    return torch.cat((o1, o2), dim=-1)


class Block(nn.Module):
    def __init__(self, dim, heads, kv_heads, hd, experts, top_k, ff, window):
        super().__init__()
        self.heads, self.kv_heads, self.hd, self.window, self.top_k = heads, kv_heads, hd, window, top_k
        self.attn_norm = RMSNorm(dim)
        self.q_proj = nn.Linear(dim, heads * hd)
        self.k_proj = nn.Linear(dim, kv_heads * hd)
        self.v_proj = nn.Linear(dim, kv_heads * hd)
        self.o_proj = nn.Linear(heads * hd, dim)
        self.sinks = nn.Parameter(torch.randn(heads))
        self.mlp_norm = RMSNorm(dim)
        self.router = nn.Linear(dim, experts)
        self.gate_up_proj = nn.Parameter(torch.randn(experts, dim, 2 * ff) / dim ** 0.5)
        self.gate_up_bias = nn.Parameter(0.1 * torch.randn(experts, 2 * ff))
        self.down_proj = nn.Parameter(torch.randn(experts, ff, dim) / ff ** 0.5)
        self.down_bias = nn.Parameter(0.1 * torch.randn(experts, dim))
        self.alpha, self.limit = 1.702, 2.0

    def attention(self, x, cos, sin):
        b, t, _ = x.shape
        h = self.attn_norm(x)
        q = self.q_proj(h).view(b, t, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v_proj(h).view(b, t, self.kv_heads, self.hd).transpose(1, 2)
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        g = self.heads // self.kv_heads
        k, v = k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1)
        scores = torch.matmul(q, k.transpose(2, 3)) * self.hd ** -0.5
        pos = torch.arange(t, device=x.device)
        diff = pos[:, None] - pos[None, :]
        keep = diff >= 0
        if self.window is not None:
            keep = keep & (diff < self.window)
        scores = scores.masked_fill(~keep, torch.finfo(scores.dtype).min)
        sinks = self.sinks.reshape(1, -1, 1, 1).expand(b, -1, t, 1)
        combined = torch.cat([scores, sinks], dim=-1)
        combined = combined - combined.max(dim=-1, keepdim=True).values
        probs = F.softmax(combined, dim=-1, dtype=combined.dtype)[..., :-1]
        o = torch.matmul(probs, v).transpose(1, 2).reshape(b, t, self.heads * self.hd)
        return x + self.o_proj(o)

    def moe(self, x):
        b, t, d = x.shape
        h = self.mlp_norm(x).reshape(b * t, d)
        router_logits = self.router(h)
        top_vals, top_idx = torch.topk(router_logits, self.top_k, dim=-1)
        top_w = F.softmax(top_vals, dim=-1)
        weights = torch.zeros_like(router_logits).scatter(1, top_idx, top_w)
        gate_up = torch.einsum("nd,edf->nef", h, self.gate_up_proj) + self.gate_up_bias
        gate, up = gate_up[..., ::2], gate_up[..., 1::2]
        gate = gate.clamp(min=None, max=self.limit)
        up = up.clamp(min=-self.limit, max=self.limit)
        glu = gate * torch.sigmoid(gate * self.alpha)
        act = (up + 1) * glu
        out = torch.einsum("nef,efd->ned", act, self.down_proj) + self.down_bias
        out = (out * weights[..., None]).sum(dim=1)
        return x + out.view(b, t, d), F.softmax(router_logits, dim=-1)


class Model(nn.Module):
    def __init__(self, dim, heads, kv_heads, hd, experts, top_k, ff, window):
        super().__init__()
        self.layers = nn.ModuleList(
            [
                Block(dim, heads, kv_heads, hd, experts, top_k, ff, window),
                Block(dim, heads, kv_heads, hd, experts, top_k, ff, None),
            ]
        )
        self.norm = RMSNorm(dim)
        self.register_buffer("inv_freq", 1.0 / (150000.0 ** (torch.arange(0, hd, 2).float() / hd)))

    def forward(self, x):
        t = x.shape[1]
        freqs = torch.arange(t, dtype=torch.float32, device=x.device)[:, None] * self.inv_freq[None, :]
        cos, sin = freqs.cos().to(x.dtype), freqs.sin().to(x.dtype)
        router_probs = None
        for layer in self.layers:
            x = layer.attention(x, cos, sin)
            x, router_probs = layer.moe(x)
        return self.norm(x), router_probs


def get_inputs():
    return [torch.randn(B, T, D)]


def get_init_inputs():
    return [D, HEADS, KV_HEADS, HD, EXPERTS, TOP_K, FF, WINDOW]

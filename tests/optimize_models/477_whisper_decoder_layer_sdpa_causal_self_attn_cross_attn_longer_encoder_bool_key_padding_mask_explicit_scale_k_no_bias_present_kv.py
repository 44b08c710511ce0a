"""One Whisper-style decoder layer built on F.scaled_dot_product_attention, with cross-attention
to a longer encoder sequence.
x (2, 11, 40) decoder states, enc (2, 23, 40) encoder states, enc_lengths int64 (2,) = [23, 17].
Self-attention (pre-LayerNorm): q_proj (bias), k_proj (NO bias), v_proj (bias) 40 -> 40, 5 heads
of 8 via view(B, T, 5, 8).transpose(1, 2), F.scaled_dot_product_attention(is_causal=True,
dropout_p=0.0) (default scale), transpose back + reshape, out_proj, residual.
Cross-attention (pre-LayerNorm on x only): q from x (11 queries), k/v from enc (23 keys) with
k_proj no bias; bool attn_mask (2, 1, 1, 23) = arange(23) < enc_lengths[:, None] (True = attend,
lengths >= 1) broadcast over heads and queries; explicit scale=0.3 (not 1/sqrt(8)); out_proj,
residual.
MLP (pre-LayerNorm): fc1 40 -> 160, GELU (erf), fc2 160 -> 40, residual.
Outputs: x (2, 11, 40) and the cross-attention present key (2, 5, 23, 8)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, S, D, HEADS = 2, 11, 23, 40, 5
HD = D // HEADS


class Attention(nn.Module):
    def __init__(self, scale=None):
        super().__init__()
        self.q_proj = nn.Linear(D, D)
        self.k_proj = nn.Linear(D, D, bias=False)
        self.v_proj = nn.Linear(D, D)
        self.out_proj = nn.Linear(D, D)
        self.scale = scale

    def _shape(self, t):
        b, n, _ = t.shape
        return t.view(b, n, HEADS, HD).transpose(1, 2)

    def forward(self, x, kv=None, attn_mask=None, is_causal=False):
        src = x if kv is None else kv
        q = self._shape(self.q_proj(x))
        k = self._shape(self.k_proj(src))
        v = self._shape(self.v_proj(src))
        o = F.scaled_dot_product_attention(
            q, k, v, attn_mask=attn_mask, dropout_p=0.0, is_causal=is_causal, scale=self.scale
        )
        o = o.transpose(1, 2).reshape(x.shape[0], x.shape[1], D)
        return self.out_proj(o), k


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.self_attn_layer_norm = nn.LayerNorm(D)
        self.self_attn = Attention()
        self.encoder_attn_layer_norm = nn.LayerNorm(D)
        self.encoder_attn = Attention(scale=0.3)
        self.final_layer_norm = nn.LayerNorm(D)
        self.fc1 = nn.Linear(D, 4 * D)
        self.fc2 = nn.Linear(4 * D, D)

    def forward(self, x, enc, enc_lengths):
        h, _ = self.self_attn(self.self_attn_layer_norm(x), is_causal=True)
        x = x + h
        mask = torch.arange(enc.shape[1], device=enc.device)[None, :] < enc_lengths[:, None]
        mask = mask[:, None, None, :]
        h, present_k = self.encoder_attn(self.encoder_attn_layer_norm(x), kv=enc, attn_mask=mask)
        x = x + h
        h = self.fc2(F.gelu(self.fc1(self.final_layer_norm(x))))
        x = x + h
        return x, present_k


def get_inputs():
    return [torch.randn(B, T, D), torch.randn(B, S, D), torch.tensor([23, 17], dtype=torch.int64)]


def get_init_inputs():
    return []

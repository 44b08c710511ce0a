"""float16 partial rotary embedding (GPT-NeoX / Phi style, rotary_dim 8 of head dim 12) with the
cos / sin tables computed in forward in float32 and cast, then picked by int32 position ids:
inv_freq float32 buffer (4,), freqs = torch.outer(arange(29, float32), inv_freq), emb =
cat(freqs, freqs) (29, 8), cos = emb.cos().to(q.dtype) (float16); cos[position_ids] with int32
position_ids (3, 11) -> (3, 11, 8) -> [:, None]; sin via torch.index_select(0, flat int32
ids).view(3, 11, 8)[:, None]. q, k float16 (3, 4, 11, 12) from get_inputs split into rotary part
[..., :8] and pass-through part [..., 8:], q_rot * cos + rotate_half(q_rot) * sin, cat back;
float16 scores q_embed @ k_embed^T * 12 ** -0.5. Outputs q_embed, k_embed (3, 4, 11, 12) and
scores (3, 4, 11, 11), all float16."""

import torch
import torch.nn as nn

B, NH, T, HD, RD, MAXPOS = 3, 4, 11, 12, 8, 29


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class Model(nn.Module):
    def __init__(self, rotary_dim, max_pos):
        super().__init__()
        self.rotary_dim = rotary_dim
        self.max_pos = max_pos
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, rotary_dim, 2, dtype=torch.float32) / rotary_dim))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, q, k, position_ids):
        t_all = torch.arange(self.max_pos, dtype=torch.float32, device=q.device)
        freqs = torch.outer(t_all, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos_t = emb.cos().to(q.dtype)
        sin_t = emb.sin().to(q.dtype)
        b, t = position_ids.shape
        cos = cos_t[position_ids][:, None]
        sin = torch.index_select(sin_t, 0, position_ids.reshape(-1)).view(b, t, -1)[:, None]
        rd = self.rotary_dim
        q_r, q_p = q[..., :rd], q[..., rd:]
        k_r, k_p = k[..., :rd], k[..., rd:]
        q_embed = torch.cat((q_r * cos + rotate_half(q_r) * sin, q_p), dim=-1)
        k_embed = torch.cat((k_r * cos + rotate_half(k_r) * sin, k_p), dim=-1)
        scores = (q_embed @ k_embed.transpose(-1, -2)) * (q.shape[-1] ** -0.5)
        return q_embed, k_embed, scores


def get_inputs():
    pos = torch.randint(0, MAXPOS, (B, T), dtype=torch.int32)
    pos[0] = torch.arange(MAXPOS - T, MAXPOS, dtype=torch.int32)
    return [torch.randn(B, NH, T, HD, dtype=torch.float16),
            torch.randn(B, NH, T, HD, dtype=torch.float16),
            pos]


def get_init_inputs():
    return [RD, MAXPOS]

"""Multimodal token fusion with a float16 branch. img (2, 9, 20) float16, txt (2, 13, 24) float32.
Image features zero-padded on the feature dim F.pad(img, (0, 4)) -> (2, 9, 24) float16, then
float16 pointwise gelu(v * 1.5) - 0.25; torch.cat([img16, txt], dim=1) promotes to float32
(2, 22, 24) (cat along the middle dim); modality type bias built by torch.cat of
type_emb[0].expand(9, 24) and type_emb[1].expand(13, 24) along dim 0; LayerNorm(24). Pooled views
F.normalize of the image-token mean and of the text-token mean (2, 24) each; torch.stack([a, b],
dim=0).mean(0) fused (2, 24); torch.vstack([a, b]) (4, 24) @ its transpose / 0.1 similarity
(4, 4). Outputs tokens (2, 22, 24) float32, fused (2, 24), similarity (4, 4)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, NI, FI, NT, D = 2, 9, 20, 13, 24


class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.d = d
        self.type_emb = nn.Parameter(torch.randn(2, d) * 0.2)
        self.norm = nn.LayerNorm(d)
        with torch.no_grad():
            self.norm.weight.copy_(torch.rand(d) + 0.5)
            self.norm.bias.copy_(torch.randn(d) * 0.1)

    def forward(self, img, txt):
        ni, nt = img.shape[1], txt.shape[1]
        v = F.pad(img, (0, self.d - img.shape[-1]))
        v = F.gelu(v * 1.5) - 0.25
        tokens = torch.cat([v, txt], dim=1)
        type_bias = torch.cat([self.type_emb[0].expand(ni, self.d), self.type_emb[1].expand(nt, self.d)], dim=0)
        tokens = self.norm(tokens + type_bias)
        a = F.normalize(tokens[:, :ni].mean(dim=1), dim=-1)
        b = F.normalize(tokens[:, ni:].mean(dim=1), dim=-1)
        fused = torch.stack([a, b], dim=0).mean(dim=0)
        z = torch.vstack([a, b])
        sim = z @ z.t() / 0.1
        return tokens, fused, sim


def get_inputs():
    return [torch.randn(B, NI, FI).half(), torch.randn(B, NT, D)]


def get_init_inputs():
    return [D]

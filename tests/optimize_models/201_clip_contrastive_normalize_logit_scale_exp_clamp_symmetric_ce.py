"""CLIP-style symmetric contrastive loss: two no-bias Linear projections (29 -> 17 image,
23 -> 17 text), F.normalize(dim=-1) of both, a learned 0-dim logit_scale initialised to
log(1 / 0.07) used as logit_scale.exp().clamp(max=100), logits = scale * img @ txt.t(),
labels = torch.arange(batch, device=...) built in forward, loss = (cross_entropy(logits,
labels) + cross_entropy(logits.t(), labels)) / 2 (the transposed logits are non-contiguous).
Inputs img: (13, 29), txt: (13, 23) randn; outputs () loss and (13, 13) logits as a tuple."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH, IMG_DIM, TXT_DIM, EMBED = 13, 29, 23, 17


class Model(nn.Module):
    def __init__(self, img_dim, txt_dim, embed_dim):
        super().__init__()
        self.img_proj = nn.Linear(img_dim, embed_dim, bias=False)
        self.txt_proj = nn.Linear(txt_dim, embed_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1.0 / 0.07)))

    def forward(self, img, txt):
        a = F.normalize(self.img_proj(img), dim=-1)
        b = F.normalize(self.txt_proj(txt), dim=-1)
        scale = self.logit_scale.exp().clamp(max=100.0)
        logits = scale * a @ b.t()
        labels = torch.arange(logits.shape[0], device=logits.device)
        loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
        return loss, logits


def get_inputs():
    return [torch.randn(BATCH, IMG_DIM), torch.randn(BATCH, TXT_DIM)]


def get_init_inputs():
    return [IMG_DIM, TXT_DIM, EMBED]

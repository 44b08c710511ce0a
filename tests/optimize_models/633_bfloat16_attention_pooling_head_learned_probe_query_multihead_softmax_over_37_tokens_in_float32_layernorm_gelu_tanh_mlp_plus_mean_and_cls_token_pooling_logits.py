"""Pooling heads for a ViT in bfloat16 (input tokens and parameters are bfloat16): multihead attention
pooling (MAP, SigLIP style) with a learned probe query against 37 tokens, 4 heads, logits computed
in bfloat16 but softmax in float32 (.float().softmax().to(bfloat16)), output projection, LayerNorm,
GELU-tanh MLP residual, classifier; plus mean pooling over the patch tokens x[:, 1:] and cls token
pooling x[:, 0] through a shared LayerNorm and classifier. Outputs: three float32 logit tensors."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, N, D, HEADS, CLASSES = 3, 37, 32, 4, 10
DT = torch.bfloat16


def p(*shape, scale=1.0):
    return nn.Parameter((torch.randn(*shape) * scale).to(DT))


class Model(nn.Module):
    def __init__(self, dim, heads, classes):
        super().__init__()
        self.heads = heads
        self.probe = p(1, 1, dim)
        self.wq = p(dim, dim, scale=dim ** -0.5)
        self.wkv = p(2 * dim, dim, scale=dim ** -0.5)
        self.bkv = p(2 * dim, scale=0.1)
        self.wo = p(dim, dim, scale=dim ** -0.5)
        self.bo = p(dim, scale=0.1)
        self.ln_w = nn.Parameter(torch.ones(dim, dtype=DT))
        self.ln_b = nn.Parameter(torch.zeros(dim, dtype=DT))
        self.w1 = p(2 * dim, dim, scale=dim ** -0.5)
        self.b1 = p(2 * dim, scale=0.1)
        self.w2 = p(dim, 2 * dim, scale=(2 * dim) ** -0.5)
        self.b2 = p(dim, scale=0.1)
        self.head_w = p(classes, dim, scale=dim ** -0.5)
        self.head_b = p(classes, scale=0.1)

    def forward(self, x):
        b, n, d = x.shape
        nh = self.heads
        hd = d // nh
        q = F.linear(self.probe.expand(b, -1, -1), self.wq).view(b, 1, nh, hd).transpose(1, 2)
        kv = F.linear(x, self.wkv, self.bkv).view(b, n, 2, nh, hd).permute(2, 0, 3, 1, 4)
        k, v = kv[0], kv[1]
        logits = (q @ k.transpose(-2, -1)) * (hd ** -0.5)
        a = logits.float().softmax(dim=-1).to(DT)
        o = (a @ v).transpose(1, 2).reshape(b, 1, d)
        o = F.linear(o, self.wo, self.bo)
        h = F.layer_norm(o, (d,), self.ln_w, self.ln_b)
        o = o + F.linear(F.gelu(F.linear(h, self.w1, self.b1), approximate="tanh"), self.w2, self.b2)
        map_logits = F.linear(o[:, 0], self.head_w, self.head_b).float()
        mean_tok = F.layer_norm(x[:, 1:].mean(dim=1), (d,), self.ln_w, self.ln_b)
        cls_tok = F.layer_norm(x[:, 0], (d,), self.ln_w, self.ln_b)
        mean_logits = F.linear(mean_tok, self.head_w, self.head_b).float()
        cls_logits = F.linear(cls_tok, self.head_w, self.head_b).float()
        return map_logits, mean_logits, cls_logits


def get_inputs():
    return [torch.randn(B, N, D).to(DT)]


def get_init_inputs():
    return [D, HEADS, CLASSES]

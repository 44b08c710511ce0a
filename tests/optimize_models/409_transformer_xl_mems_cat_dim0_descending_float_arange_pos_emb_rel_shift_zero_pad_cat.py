"""Transformer-XL relative multi-head attention layer (RelPartialLearnableMultiHeadAttn, post-norm),
sequence-first. x = randn(2, 11, 32).transpose(0, 1) (11, 2, 32) non-contiguous; mems (6, 2, 32).
cat = torch.cat([mems, x], dim=0) (17, 2, 32) -> qkv Linear 32 -> 96 (no bias), chunk(3, -1),
q = last 11 rows. Position embedding built in forward: pos_seq = torch.arange(16, -1, -1.0)
(descending float arange), inv_freq = 1 / 10000 ** (torch.arange(0.0, 32, 2.0) / 32) (float
start / step), torch.outer, torch.cat([sin, cos], dim=-1) (17, 32) -> r Linear 32 -> 32 (no
bias). AC = einsum('ibnd,jbnd->ijbn', q + r_w_bias, k), BD = einsum('ibnd,jnd->ijbn', q +
r_r_bias, r_k); relative shift of BD (11, 17, 2, 4): torch.cat([zeros (11, 1, 2, 4), BD], dim=1)
-> view(18, 11, 2, 4)[1:].view_as(BD). score = (AC + BD) * 8 ** -0.5, masked_fill with
arange(17)[None, :] > arange(11)[:, None] + 6 (causal with memory) -> -inf, softmax over dim 1,
einsum('ijbn,jbnd->ibnd') with v, o Linear 32 -> 32 (no bias), LayerNorm(x + out). New memory
torch.cat([mems, x], 0)[-8:]. Outputs (11, 2, 32) and (8, 2, 32)."""

import torch
import torch.nn as nn

QLEN, MLEN, BSZ, D, HEADS, MEM_LEN = 11, 6, 2, 32, 4, 8


class Model(nn.Module):
    def __init__(self, d_model, n_head, mem_len):
        super().__init__()
        self.d_model = d_model
        self.n_head = n_head
        self.d_head = d_model // n_head
        self.mem_len = mem_len
        self.scale = 1.0 / (self.d_head ** 0.5)
        self.qkv_net = nn.Linear(d_model, 3 * d_model, bias=False)
        self.r_net = nn.Linear(d_model, d_model, bias=False)
        self.o_net = nn.Linear(d_model, d_model, bias=False)
        self.layer_norm = nn.LayerNorm(d_model)
        self.r_w_bias = nn.Parameter(torch.randn(n_head, self.d_head) * 0.1)
        self.r_r_bias = nn.Parameter(torch.randn(n_head, self.d_head) * 0.1)

    @staticmethod
    def _rel_shift(x):
        zero_pad = torch.zeros((x.size(0), 1, *x.size()[2:]), device=x.device, dtype=x.dtype)
        x_padded = torch.cat([zero_pad, x], dim=1)
        x_padded = x_padded.view(x.size(1) + 1, x.size(0), *x.size()[2:])
        return x_padded[1:].view_as(x)

    def forward(self, w, mems):
        qlen, bsz = w.size(0), w.size(1)
        mlen = mems.size(0)
        klen = mlen + qlen
        pos_seq = torch.arange(klen - 1, -1, -1.0, device=w.device, dtype=w.dtype)
        inv_freq = 1.0 / (10000 ** (torch.arange(0.0, self.d_model, 2.0, device=w.device) / self.d_model))
        sinusoid = torch.outer(pos_seq, inv_freq)
        r = torch.cat([sinusoid.sin(), sinusoid.cos()], dim=-1)

        cat = torch.cat([mems, w], 0)
        w_heads = self.qkv_net(cat)
        r_head_k = self.r_net(r)
        w_head_q, w_head_k, w_head_v = torch.chunk(w_heads, 3, dim=-1)
        w_head_q = w_head_q[-qlen:]
        n, dh = self.n_head, self.d_head
        w_head_q = w_head_q.view(qlen, bsz, n, dh)
        w_head_k = w_head_k.view(klen, bsz, n, dh)
        w_head_v = w_head_v.view(klen, bsz, n, dh)
        r_head_k = r_head_k.view(klen, n, dh)

        ac = torch.einsum("ibnd,jbnd->ijbn", w_head_q + self.r_w_bias, w_head_k)
        bd = torch.einsum("ibnd,jnd->ijbn", w_head_q + self.r_r_bias, r_head_k)
        bd = self._rel_shift(bd)
        score = (ac + bd) * self.scale
        qi = torch.arange(qlen, device=w.device)
        kj = torch.arange(klen, device=w.device)
        mask = kj[None, :] > qi[:, None] + mlen
        score = score.masked_fill(mask[:, :, None, None], float("-inf"))
        prob = torch.softmax(score, dim=1)
        vec = torch.einsum("ijbn,jbnd->ibnd", prob, w_head_v).contiguous().view(qlen, bsz, n * dh)
        out = self.layer_norm(w + self.o_net(vec))
        new_mems = torch.cat([mems, w], 0)[-self.mem_len:]
        return out, new_mems


def get_inputs():
    return [torch.randn(BSZ, QLEN, D).transpose(0, 1), torch.randn(MLEN, BSZ, D)]


def get_init_inputs():
    return [D, HEADS, MEM_LEN]

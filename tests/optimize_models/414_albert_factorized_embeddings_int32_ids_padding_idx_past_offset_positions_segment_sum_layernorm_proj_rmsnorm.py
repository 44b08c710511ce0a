"""ALBERT-style factorized embeddings with a KV-cache position offset. int32 token ids (3, 19)
right-padded with pad id 1, word nn.Embedding(211, 16, padding_idx=1) (the pad row is zero) times
sqrt(16); positions arange(19) + past_len, where past_len is a 0-dim int64 tensor input (value
5), looked up with F.embedding in a (40, 16) position parameter and broadcast over the batch;
int64 segment ids (3, 19) in [0, 3) through nn.Embedding(3, 16); the three summed, LayerNorm(16),
projection Linear 16 -> 40, nn.RMSNorm(40, eps=1e-6), times the float (ids != 1) mask.
Outputs the hidden states (3, 19, 40) and the summed 16-wide embeddings after LayerNorm
(3, 19, 16)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, VOCAB, E, D, MAXPOS, NSEG, PAD = 3, 19, 211, 16, 40, 40, 3, 1


class Model(nn.Module):
    def __init__(self, vocab, emb_dim, hidden, max_pos, n_seg, pad_id):
        super().__init__()
        self.pad_id = pad_id
        self.scale = math.sqrt(emb_dim)
        self.word = nn.Embedding(vocab, emb_dim, padding_idx=pad_id)
        self.pos_table = nn.Parameter(torch.randn(max_pos, emb_dim) * 0.2)
        self.seg = nn.Embedding(n_seg, emb_dim)
        self.norm = nn.LayerNorm(emb_dim)
        self.proj = nn.Linear(emb_dim, hidden)
        self.rms = nn.RMSNorm(hidden, eps=1e-6)

    def forward(self, ids, segment_ids, past_len):
        t = ids.shape[1]
        w = self.word(ids) * self.scale
        pos = torch.arange(t, device=ids.device) + past_len
        p = F.embedding(pos, self.pos_table)
        e = self.norm(w + p[None] + self.seg(segment_ids))
        h = self.rms(self.proj(e))
        mask = (ids != self.pad_id).to(h.dtype)
        return h * mask[..., None], e


def get_inputs():
    ids = torch.randint(2, VOCAB, (B, T), dtype=torch.int32)
    ids[0, 15:] = PAD
    ids[2, 9:] = PAD
    ids[1, 4] = 0
    seg = torch.randint(0, NSEG, (B, T), dtype=torch.int64)
    past_len = torch.tensor(5, dtype=torch.int64)
    return [ids, seg, past_len]


def get_init_inputs():
    return [VOCAB, E, D, MAXPOS, NSEG, PAD]

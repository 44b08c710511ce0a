"""BERT-style embeddings and masked-LM head with picks: word nn.Embedding(89, 32) on int64 ids
(3, 19), token-type F.embedding(token_type_ids, type_weight (2, 32)) with int32 token_type_ids,
absolute positions self.pos.weight[:19] (slice of a (24, 32) table), sum, LayerNorm; the
hidden states at masked positions picked by h[batch[:, None], masked_pos] with batch =
torch.arange(3) built in forward and int64 masked_pos (3, 4) (broadcast index tensors) ->
(3, 4, 32); MLM transform Linear 32 -> 32 + GELU + LayerNorm, decoder tied to the word
embedding F.linear(t, word.weight) + bias (89,) -> (3, 4, 89), log_softmax, gather of the
int64 masked labels (3, 4), mean NLL. Outputs logits (3, 4, 89) and 0-dim loss."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, V, MAXPOS, NM = 3, 19, 32, 89, 24, 4


class Model(nn.Module):
    def __init__(self, vocab, dim, max_pos):
        super().__init__()
        self.word = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_pos, dim)
        self.type_weight = nn.Parameter(torch.randn(2, dim) * 0.3)
        self.emb_norm = nn.LayerNorm(dim)
        self.dense = nn.Linear(dim, dim)
        self.head_norm = nn.LayerNorm(dim)
        self.dec_bias = nn.Parameter(torch.randn(vocab) * 0.1)

    def forward(self, ids, token_type_ids, masked_pos, masked_labels):
        b, t = ids.shape
        h = self.word(ids) + F.embedding(token_type_ids, self.type_weight) + self.pos.weight[:t]
        h = self.emb_norm(h)
        batch = torch.arange(b, device=ids.device)
        picked = h[batch[:, None], masked_pos]
        z = self.head_norm(F.gelu(self.dense(picked)))
        logits = F.linear(z, self.word.weight) + self.dec_bias
        lp = F.log_softmax(logits, dim=-1)
        nll = -lp.gather(-1, masked_labels[..., None]).squeeze(-1)
        return logits, nll.mean()


def get_inputs():
    ids = torch.randint(0, V, (B, T), dtype=torch.int64)
    tt = torch.zeros(B, T, dtype=torch.int32)
    tt[:, 9:] = 1
    tt[2, 12:] = 0
    masked_pos = torch.stack([torch.randperm(T)[:NM] for _ in range(B)])
    return [ids, tt, masked_pos, torch.randint(0, V, (B, NM), dtype=torch.int64)]


def get_init_inputs():
    return [V, D, MAXPOS]

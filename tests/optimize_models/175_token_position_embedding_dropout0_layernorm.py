"""GPT-2 style input embeddings: nn.Embedding(301, 40) for int64 token ids plus
nn.Embedding(32, 40) for positions, positions built in forward with
torch.arange(T, dtype=torch.long, device=ids.device) (only the first 19 of 32 rows used),
nn.Dropout(p=0.0) (identity in either mode), then nn.LayerNorm(40).
Input ids (3, 19) int64 in [0, 301); output (3, 19, 40)."""

import torch
import torch.nn as nn

B, T, V, MAX_POS, D = 3, 19, 301, 32, 40


class Model(nn.Module):
    def __init__(self, vocab, max_pos, dim):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(max_pos, dim)
        self.drop = nn.Dropout(p=0.0)
        self.ln = nn.LayerNorm(dim)

    def forward(self, ids):
        t = ids.shape[1]
        pos = torch.arange(0, t, dtype=torch.long, device=ids.device)
        x = self.wte(ids) + self.wpe(pos)
        x = self.drop(x)
        return self.ln(x)


def get_inputs():
    return [torch.randint(0, V, (B, T), dtype=torch.int64)]


def get_init_inputs():
    return [V, MAX_POS, D]

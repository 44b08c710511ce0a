import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """
    Bag-of-embeddings mean pooling with the embedding table passed as an input.

    forward(table, indices) -> out
        table:   [V, D] float32
        indices: [NB, L] int64, every entry in [0, V)
        out:     [NB, D] float32, out[b] = mean_j table[indices[b, j]]
    """

    def __init__(self):
        super().__init__()

    def forward(self, table: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
        return F.embedding(indices, table).mean(dim=1)


V, D = 16384, 512
NB, L = 4096, 64


def get_inputs():
    table = torch.randn(V, D)
    indices = torch.randint(0, V, (NB, L), dtype=torch.int64)
    return [table, indices]


def get_init_inputs():
    return []

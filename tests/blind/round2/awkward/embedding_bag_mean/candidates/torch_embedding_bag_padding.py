import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, table: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
        return F.embedding_bag(indices, table, mode="mean", padding_idx=0)

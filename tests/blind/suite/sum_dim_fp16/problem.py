import torch
import torch.nn as nn


class Model(nn.Module):
    """Sum over one dimension (kept as size 1) of a float16 tensor."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim, keepdim=True)


batch_size = 16
dim1 = 4096
dim2 = 4095
reduce_dim = 1


def get_inputs():
    x = torch.randn(batch_size, dim1, dim2, dtype=torch.float16)
    return [x]


def get_init_inputs():
    return [reduce_dim]

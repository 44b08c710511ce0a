import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Argmax over dim=1 of a 3D half-precision tensor. Returns int64 indices.
    """

    def __init__(self, dim: int):
        super(Model, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmax(x, dim=self.dim)


batch_size = 64
dim1 = 1021
dim2 = 509


def get_inputs():
    x = torch.randn(batch_size, dim1, dim2, dtype=torch.float16)
    return [x]


def get_init_inputs():
    return [1]

import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Temperature-scaled log-softmax where the temperature (Python float) and the
    reduction dim (Python int) are passed to forward() as plain non-tensor args.

    forward(x, temperature, dim) -> log_softmax(x / temperature, dim=dim)
        x: [A, R, C] float32; get_inputs uses dim=1 (the middle dimension)
    """

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, temperature: float, dim: int) -> torch.Tensor:
        return torch.log_softmax(x / temperature, dim=dim)


SHAPE = (32, 512, 512)
TEMPERATURE = 0.7
DIM = 1


def get_inputs():
    return [torch.randn(*SHAPE), TEMPERATURE, DIM]


def get_init_inputs():
    return []

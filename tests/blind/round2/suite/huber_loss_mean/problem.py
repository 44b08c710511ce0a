import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """
    Huber loss with mean reduction; returns a scalar.
    """

    def __init__(self, delta: float):
        super(Model, self).__init__()
        self.delta = delta

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.huber_loss(predictions, targets, reduction="mean", delta=self.delta)


batch_size = 4096
dim = 4111


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return [1.0]

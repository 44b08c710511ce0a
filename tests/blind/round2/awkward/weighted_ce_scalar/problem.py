import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """
    Class-weighted cross-entropy loss (reduction='mean'), returning a 0-dim tensor.

    forward(logits, targets) -> scalar
        logits:  [N, C] float32
        targets: [N]    int64 class indices in [0, C)
    The per-class weights are a deterministic registered buffer.
    """

    def __init__(self, num_classes: int):
        super().__init__()
        w = 1.0 + 0.25 * (torch.arange(num_classes) % 5).float()
        self.register_buffer("class_weight", w)

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits, targets, weight=self.class_weight)


N, C = 16384, 1000


def get_inputs():
    logits = torch.randn(N, C)
    targets = torch.randint(0, C, (N,), dtype=torch.int64)
    return [logits, targets]


def get_init_inputs():
    return [C]

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, num_classes: int):
        super().__init__()
        w = 1.0 + 0.25 * (torch.arange(num_classes) % 5).float()
        self.register_buffer("class_weight", w)

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        logp = torch.log_softmax(logits, dim=1)
        nll = -logp.gather(1, targets.unsqueeze(1)).squeeze(1)
        return (self.class_weight[targets] * nll).mean()

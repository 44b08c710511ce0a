import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, num_classes: int):
        super().__init__()
        w = 1.0 + 0.25 * (torch.arange(num_classes) % 5).float()
        self.register_buffer("class_weight", w)

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        lse = torch.logsumexp(logits, dim=1)
        picked = logits.gather(1, targets.unsqueeze(1)).squeeze(1)
        w = self.class_weight.index_select(0, targets)
        return (w * (lse - picked)).sum() / w.sum()

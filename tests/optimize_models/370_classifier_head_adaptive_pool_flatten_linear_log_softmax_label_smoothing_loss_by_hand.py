"""Classification head with a timm-style LabelSmoothingCrossEntropy written by hand:
features (13, 40, 9, 11) -> nn.AdaptiveAvgPool2d(1) -> torch.flatten(x, 1) -> nn.Linear(40 ->
37) -> F.log_softmax(dim=-1); loss with smoothing 0.1: nll = -logprobs.gather(dim=-1,
index=target.unsqueeze(1)).squeeze(1), smooth = -logprobs.mean(dim=-1), loss = (0.9 * nll +
0.1 * smooth).mean(). Inputs features (13, 40, 9, 11), int64 targets (13,) in [0, 37);
outputs (13, 37) log-probabilities and a 0-dim loss."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W, NUM_CLASSES, SMOOTHING = 13, 40, 9, 11, 37, 0.1


class Model(nn.Module):
    def __init__(self, in_features, num_classes, smoothing):
        super().__init__()
        self.smoothing = smoothing
        self.confidence = 1.0 - smoothing
        self.global_pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(in_features, num_classes)

    def forward(self, x, target):
        x = self.global_pool(x)
        x = torch.flatten(x, 1)
        logits = self.fc(x)
        logprobs = F.log_softmax(logits, dim=-1)
        nll_loss = -logprobs.gather(dim=-1, index=target.unsqueeze(1))
        nll_loss = nll_loss.squeeze(1)
        smooth_loss = -logprobs.mean(dim=-1)
        loss = self.confidence * nll_loss + self.smoothing * smooth_loss
        return logprobs, loss.mean()


def get_inputs():
    return [torch.randn(N, C, H, W), torch.randint(0, NUM_CLASSES, (N,), dtype=torch.int64)]


def get_init_inputs():
    return [C, NUM_CLASSES, SMOOTHING]

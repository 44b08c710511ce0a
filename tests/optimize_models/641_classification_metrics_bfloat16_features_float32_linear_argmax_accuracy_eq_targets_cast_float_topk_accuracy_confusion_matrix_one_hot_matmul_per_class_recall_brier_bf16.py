"""Classification metrics from bfloat16 features: logits = F.linear(x.float(), W, b) in float32
(so argmax has no ties), argmax compared to int64 targets, accuracy = eq.float().mean() (0-dim),
top-3 accuracy via topk indices == target.unsqueeze(1) any over k, confusion matrix as
one_hot(target)^T @ one_hot(pred) in float, per-class recall diag / row sum clamp_min, macro
recall, Brier score computed in bfloat16 (returned as bfloat16), cross entropy. Tuple output."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D, C = 53, 21, 7


class Model(nn.Module):
    def __init__(self, d_in, num_classes):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_classes, d_in) * 0.4)
        self.bias = nn.Parameter(torch.randn(num_classes) * 0.1)
        self.num_classes = num_classes

    def forward(self, x, target):
        logits = F.linear(x.float(), self.weight, self.bias)
        pred = logits.argmax(dim=-1)
        correct = (pred == target).float()
        acc = correct.mean()
        top3 = logits.topk(3, dim=-1).indices
        top3_acc = (top3 == target.unsqueeze(1)).any(dim=1).float().mean()
        oh_t = F.one_hot(target, self.num_classes).float()
        oh_p = F.one_hot(pred, self.num_classes).float()
        conf = oh_t.t() @ oh_p  # (C, C)
        recall = torch.diagonal(conf) / conf.sum(dim=1).clamp_min(1.0)
        macro_recall = recall.mean()
        prob16 = torch.softmax(logits, dim=-1).to(torch.bfloat16)
        brier = (prob16 - oh_t.to(torch.bfloat16)).pow(2).sum(dim=-1).mean()
        ce = F.cross_entropy(logits, target)
        return acc, top3_acc, conf, macro_recall, brier, ce


def get_inputs():
    x = torch.randn(B, D).to(torch.bfloat16)
    target = torch.randint(0, C, (B,), dtype=torch.int64)
    return [x, target]


def get_init_inputs():
    return [D, C]

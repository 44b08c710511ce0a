"""Segmentation overlap losses over spatial dims: softmax over classes of (N, C, H, W) logits,
one-hot of int64 mask (N, H, W) via F.one_hot, permute(0, 3, 1, 2) (non-contiguous) and cast
to float; soft dice and soft Jaccard per (sample, class) with sums over dims (2, 3), smoothing
eps; mean over dims (0, 1); per-class dice averaged over the batch; binary dice on a sigmoid
channel summed over dims (1, 2, 3). Outputs: 0-dim loss, per-class dice (C,), binary dice (N,)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 3, 5, 23, 19


class Model(nn.Module):
    def __init__(self, num_classes, smooth):
        super().__init__()
        self.num_classes = num_classes
        self.smooth = smooth

    def forward(self, logits, mask, bin_logits, bin_target):
        prob = torch.softmax(logits, dim=1)
        oh = F.one_hot(mask, self.num_classes).permute(0, 3, 1, 2).float()
        inter = (prob * oh).sum(dim=(2, 3))
        card = prob.sum(dim=(2, 3)) + oh.sum(dim=(2, 3))
        dice = (2 * inter + self.smooth) / (card + self.smooth)  # (N, C)
        jacc = (inter + self.smooth) / (card - inter + self.smooth)
        dice_loss = 1 - dice.mean(dim=(0, 1))
        jacc_loss = 1 - jacc.mean()
        per_class = dice.mean(dim=0)
        p = torch.sigmoid(bin_logits)
        t = bin_target.float()
        bd = (2 * (p * t).sum(dim=(1, 2, 3)) + 1.0) / (p.sum(dim=(1, 2, 3)) + t.sum(dim=(1, 2, 3)) + 1.0)
        loss = dice_loss + jacc_loss + (1 - bd).mean()
        return loss, per_class, bd


def get_inputs():
    logits = torch.randn(N, C, H, W)
    mask = torch.randint(0, C, (N, H, W), dtype=torch.int64)
    bin_logits = torch.randn(N, 1, H, W)
    bin_target = torch.randint(0, 2, (N, 1, H, W), dtype=torch.int64)
    return [logits, mask, bin_logits, bin_target]


def get_init_inputs():
    return [C, 1e-5]

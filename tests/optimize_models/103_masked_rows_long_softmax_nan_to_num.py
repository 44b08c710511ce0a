"""Softmax and log_softmax over the last dim of a few long rows (5 rows of 14983) where a
bool mask input sets positions to -inf with torch.where; two rows are masked entirely, so
their softmax and log_softmax are NaN. The forward then removes the NaNs (torch.nan_to_num
for the probabilities, torch.where(isnan) for the log-probabilities) and zeroes the -inf
log-probabilities of masked positions, so every output is finite."""

import torch
import torch.nn as nn

R, D = 5, 14983
FULLY_MASKED_ROWS = [1, 3]


class Model(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.temperature = temperature

    def forward(self, x, mask):
        logits = torch.where(mask, x / self.temperature, float("-inf"))
        p = torch.softmax(logits, dim=-1)
        lp = torch.log_softmax(logits, dim=-1)
        p = torch.nan_to_num(p, nan=0.0)
        lp = torch.where(torch.isnan(lp), torch.zeros_like(lp), lp)
        lp = torch.where(mask, lp, 0.0)
        # expected log-probability under p (0 for the fully masked rows)
        ent = (p * lp).sum(dim=-1)
        return p, lp, ent


def get_inputs():
    x = torch.randn(R, D) * 2.0
    mask = torch.rand(R, D) > 0.35
    mask[FULLY_MASKED_ROWS] = False
    return [x, mask]


def get_init_inputs():
    return [0.9]

"""Margin classification losses written with F.*: x (29, 13) from a Linear 17 -> 13 on
h (29, 17).
F.multi_margin_loss(x, y, p=1, margin=1.0, weight=w, reduction='none') (29,) and
F.multi_margin_loss(x, y, p=2, margin=0.5, reduction='mean'), y int64 (29,) in [0, 13),
w (13,) a buffer;
F.multilabel_margin_loss(x, ym, reduction='none') (29,) and 'sum', ym int64 (29, 13): each
row holds k distinct label ids followed by -1 (the first -1 ends the label list; k = 0
gives an all -1 row and loss 0, k = 13 a row with no -1);
F.multilabel_soft_margin_loss(x, mh, weight=w, reduction='none') (29,) with mh the
float multi-hot of ym;
F.soft_margin_loss(x[:, 0], s, reduction='mean') with s float +-1 (29,).
Outputs: four (29,) vectors and a 0-dim total."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, D, C = 29, 17, 13


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(D, C)
        self.register_buffer("w", torch.rand(C) + 0.5)

    def forward(self, h, y, ym, mh, s):
        x = self.fc(h)
        mm1 = F.multi_margin_loss(x, y, p=1, margin=1.0, weight=self.w, reduction="none")
        mm2 = F.multi_margin_loss(x, y, p=2, margin=0.5, reduction="mean")
        ml = F.multilabel_margin_loss(x, ym, reduction="none")
        ml_sum = F.multilabel_margin_loss(x, ym, reduction="sum")
        mls = F.multilabel_soft_margin_loss(x, mh, weight=self.w, reduction="none")
        sm = F.soft_margin_loss(x[:, 0], s, reduction="mean")
        total = mm2 + ml_sum / B + sm + mls.mean()
        return mm1, ml, mls, x[:, 0] * s, total


def get_inputs():
    h = torch.randn(B, D)
    y = torch.randint(0, C, (B,), dtype=torch.int64)
    ym = torch.full((B, C), -1, dtype=torch.int64)
    mh = torch.zeros(B, C)
    ks = torch.randint(0, C + 1, (B,))
    ks[0], ks[1] = 0, C
    for i in range(B):
        k = int(ks[i])
        labels = torch.randperm(C)[:k]
        ym[i, :k] = labels
        mh[i, labels] = 1.0
    s = torch.where(torch.randn(B) > 0, 1.0, -1.0)
    return [h, y, ym, mh, s]


def get_init_inputs():
    return []

"""as_strided reads of a contiguous input (overlapping windows), and contiguous() of a permuted
result feeding a reduction over the former last dim.
x (5, 40) float32 contiguous, v (6, 10, 14) float32 contiguous, k (7,) parameter.
win = x.as_strided((5, 34, 7), (40, 1, 1)) (sliding windows of width 7, stride 1: every element
read by up to 7 windows); conv = (win * k).sum(-1) (5, 34) (a 1-D correlation);
wmax = win.amax(dim=-1) (sliding max); win2 = x.as_strided((4, 9, 5), (40, 4, 1),
storage_offset=3) (windows of 5 with step 4 on rows 0..3 starting at column 3, overlapping by
1) -> mean(dim=-1) (4, 9); diag = x.as_strided((5,), (41,)) (main diagonal x[i, i]);
uf = x.unfold(1, 6, 3) (5, 12, 6) (Tensor.unfold view, overlapping) -> std(dim=-1);
pc = (v * 2 + 1).permute(2, 0, 1).contiguous() (14, 6, 10) -> sum over dim 0 (the former last
dim, now leading) (6, 10) and amax over dims (0, 2) (6,); pm = pc.view(14, 60).mean(dim=1) (14,).
Outputs: conv, wmax, w2m, diag, ufs, pcs, pca, pm."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kw):
        super().__init__()
        self.k = nn.Parameter(torch.randn(kw))

    def forward(self, x, v):
        win = x.as_strided((5, 34, 7), (40, 1, 1))
        conv = (win * self.k).sum(-1)
        wmax = win.amax(dim=-1)
        w2m = x.as_strided((4, 9, 5), (40, 4, 1), storage_offset=3).mean(dim=-1)
        diag = x.as_strided((5,), (41,)) * 2.0
        ufs = x.unfold(1, 6, 3).std(dim=-1)
        pc = (v * 2.0 + 1.0).permute(2, 0, 1).contiguous()
        pcs = pc.sum(dim=0)
        pca = pc.amax(dim=(0, 2))
        pm = pc.view(14, 60).mean(dim=1)
        return conv, wmax, w2m, diag, ufs, pcs, pca, pm


def get_inputs():
    return [torch.randn(5, 40), torch.randn(6, 10, 14)]


def get_init_inputs():
    return [7]

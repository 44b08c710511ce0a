"""CTC-style output head: per-time-step log_softmax over classes and gathers of label log-probs.
feats = randn(3, 23, 13), targets = randint(1, 11, (3, 6)) int64, frame_labels =
randint(0, 11, (3, 23)) int64, lengths = randint(10, 24, (3,)) int64. Class 0 is the blank.
lp = log_softmax(Linear(13 -> 11)(feats), -1) (3, 23, 11).
tgt_lp = lp.gather(2, targets[:, None, :].expand(3, 23, 6)) (3, 23, 6);
frame_lp = lp.gather(-1, frame_labels[..., None]).squeeze(-1) (3, 23);
mask = arange(23)[None, :] < lengths[:, None]; nll = -(frame_lp * mask).sum(1) / lengths (3,);
blank = lp[..., 0] (3, 23); greedy path: (score, path) = lp.max(-1), path int64 (3, 23),
path masked to -1 past the length, path score = (score * mask).sum(1) (3,).
Outputs: tgt_lp, nll, blank, masked path (int64), path score."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, FEAT, V, S = 3, 23, 13, 11, 6


class Model(nn.Module):
    def __init__(self, feat, classes):
        super().__init__()
        self.proj = nn.Linear(feat, classes)

    def forward(self, feats, targets, frame_labels, lengths):
        b, t, _ = feats.shape
        lp = F.log_softmax(self.proj(feats), dim=-1)
        tgt_lp = lp.gather(2, targets[:, None, :].expand(b, t, targets.shape[1]))
        frame_lp = lp.gather(-1, frame_labels.unsqueeze(-1)).squeeze(-1)
        mask = torch.arange(t, device=feats.device)[None, :] < lengths[:, None]
        nll = -(frame_lp * mask).sum(dim=1) / lengths
        blank = lp[..., 0]
        score, path = lp.max(dim=-1)
        path = path.masked_fill(~mask, -1)
        path_score = (score * mask).sum(dim=1)
        return tgt_lp, nll, blank, path, path_score


def get_inputs():
    return [
        torch.randn(B, T, FEAT),
        torch.randint(1, V, (B, S)),
        torch.randint(0, V, (B, T)),
        torch.randint(10, T + 1, (B,)),
    ]


def get_init_inputs():
    return [FEAT, V]

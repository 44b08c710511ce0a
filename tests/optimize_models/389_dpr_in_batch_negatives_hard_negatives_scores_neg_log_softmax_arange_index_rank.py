"""DPR-style in-batch negatives loss with one hard negative per question: question encoder
nn.Linear(40 -> 32) on q (23, 40), passage encoder nn.Linear(40 -> 32) on passages (46, 40)
(positive of question i at row 2 * i, its hard negative at 2 * i + 1); scores = qe @ pe.t()
(23, 46); positive index torch.arange(23) * 2 built in forward; loss =
-F.log_softmax(scores, 1)[torch.arange(23), pos].mean(); rank of the positive
(scores > scores[arange, pos][:, None]).sum(1) (int64 (23,)). Outputs 0-dim loss, int64 ranks,
and the (23, 46) scores."""

import torch
import torch.nn as nn
import torch.nn.functional as F

NQ, D_IN, D_EMB = 23, 40, 32


class Model(nn.Module):
    def __init__(self, d_in, d_emb):
        super().__init__()
        self.q_enc = nn.Linear(d_in, d_emb)
        self.p_enc = nn.Linear(d_in, d_emb)

    def forward(self, q, passages):
        qe = self.q_enc(q)
        pe = self.p_enc(passages)
        scores = qe @ pe.t()
        n = q.shape[0]
        rows = torch.arange(n, device=q.device)
        pos = rows * 2
        lp = F.log_softmax(scores, dim=1)
        loss = -lp[rows, pos].mean()
        pos_scores = scores[rows, pos]
        rank = (scores > pos_scores[:, None]).sum(dim=1)
        return loss, rank, scores


def get_inputs():
    return [torch.randn(NQ, D_IN), torch.randn(2 * NQ, D_IN)]


def get_init_inputs():
    return [D_IN, D_EMB]

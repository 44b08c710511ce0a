"""DETR / RetinaNet-style training loss head returning three 0-dim scalars.
logits (23, 11), target int64 (23,) in [0, 11) with every 5th entry set to -100 (ignored; 5
ignored, 18 valid), pred_raw (23, 4), tgt_raw (23, 4).
valid = target != -100 (bool), nv = valid.sum().clamp_min(1) as float.
Classification: logp = log_softmax(logits, -1); nll = F.nll_loss(logp, target, ignore_index=-100)
(mean over valid rows); hand-written label smoothing (eps 0.1): t0 = target.clamp(min=0),
ls = -(0.9 * logp.gather(1, t0[:, None]).squeeze(1) + 0.1 * logp.mean(-1)), masked mean over
valid rows (torch.where(valid, ls, 0).sum() / nv); loss_cls = nll + ls_mean.
Sigmoid focal loss (torchvision formula, alpha 0.25, gamma 2): onehot = F.one_hot(t0, 11).float(),
p = sigmoid(logits), ce = F.binary_cross_entropy_with_logits(logits, onehot, reduction='none'),
p_t = p * onehot + (1 - p) * (1 - onehot), loss = ce * (1 - p_t) ** 2 * (0.25 * onehot + 0.75 *
(1 - onehot)); summed over classes, masked by valid, divided by nv.
Boxes: pred = sigmoid(pred_raw), tgt = sigmoid(tgt_raw) as (cx, cy, w, h) in (0, 1), converted to
xyxy with unbind + stack; L1 between the cxcywh boxes; GIoU by hand: inter from max of x1/y1 and
min of x2/y2 clamped at 0, union = area_p + area_t - inter, iou = inter / union, enclosing box
area, giou = iou - (encl - union) / encl; loss_box = masked mean of (L1 sum over 4 + 2 * (1 - giou)).
Outputs: (loss_cls, loss_focal, loss_box), each 0-dim float32."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, K = 23, 11
IGNORE = -100


def box_cxcywh_to_xyxy(b):
    cx, cy, w, h = b.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)


def giou_paired(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, :2], b[:, :2])
    rb = torch.min(a[:, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, 0] * wh[:, 1]
    union = area_a + area_b - inter
    iou = inter / union
    lt_c = torch.min(a[:, :2], b[:, :2])
    rb_c = torch.max(a[:, 2:], b[:, 2:])
    wh_c = (rb_c - lt_c).clamp(min=0)
    encl = wh_c[:, 0] * wh_c[:, 1]
    return iou - (encl - union) / encl


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 0.1
        self.alpha = 0.25
        self.gamma = 2.0

    def forward(self, logits, target, pred_raw, tgt_raw):
        valid = target != IGNORE
        nv = valid.sum().clamp_min(1).to(logits.dtype)
        t0 = target.clamp(min=0)

        logp = F.log_softmax(logits, dim=-1)
        nll = F.nll_loss(logp, target, ignore_index=IGNORE)
        ls = -((1.0 - self.eps) * logp.gather(1, t0[:, None]).squeeze(1) + self.eps * logp.mean(dim=-1))
        ls_mean = torch.where(valid, ls, torch.zeros_like(ls)).sum() / nv
        loss_cls = nll + ls_mean

        onehot = F.one_hot(t0, K).to(logits.dtype)
        p = torch.sigmoid(logits)
        ce = F.binary_cross_entropy_with_logits(logits, onehot, reduction="none")
        p_t = p * onehot + (1 - p) * (1 - onehot)
        fl = ce * (1 - p_t) ** self.gamma
        fl = (self.alpha * onehot + (1 - self.alpha) * (1 - onehot)) * fl
        loss_focal = (fl.sum(dim=1) * valid.to(fl.dtype)).sum() / nv

        pb = torch.sigmoid(pred_raw)
        tb = torch.sigmoid(tgt_raw)
        l1 = (pb - tb).abs().sum(dim=-1)
        giou = giou_paired(box_cxcywh_to_xyxy(pb), box_cxcywh_to_xyxy(tb))
        per = l1 + 2.0 * (1.0 - giou)
        loss_box = per.masked_fill(~valid, 0.0).sum() / nv
        return loss_cls, loss_focal, loss_box


def get_inputs():
    target = torch.randint(0, K, (N,), dtype=torch.int64)
    target[::5] = IGNORE
    return [torch.randn(N, K), target, torch.randn(N, 4), torch.randn(N, 4)]


def get_init_inputs():
    return []

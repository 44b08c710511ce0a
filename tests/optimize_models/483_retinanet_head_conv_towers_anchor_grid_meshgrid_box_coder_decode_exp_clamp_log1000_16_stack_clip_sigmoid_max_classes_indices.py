"""RetinaNet-style dense detection head with anchor generation and torchvision BoxCoder decoding.
feat (2, 16, 9, 11), feature stride 8 on a 72 x 88 image; A = 3 anchors per location, 7 classes.
cls = Conv2d 16 -> 21 (k3, padding 1) after a Conv2d 16 -> 16 + ReLU tower; reg = 60 *
Conv2d 16 -> 12 (k3, padding 1) after its own tower (the x60 pushes some dw/dh past the clamp).
Both reshaped view(N, A, K, H, W).permute(0, 3, 4, 1, 2).reshape(N, H * W * A, K).
Anchors built in forward: centres (arange(W) + 0.5) * 8 and (arange(H) + 0.5) * 8 via
torch.meshgrid(indexing='ij'), sizes buffer (3, 2) of (w, h) -> xyxy anchors (297, 4).
Decode (weights 10, 10, 5, 5): dx = rel[..., 0] / 10, dy = rel[..., 1] / 10,
dw = (rel[..., 2] / 5).clamp(max=log(1000 / 16)), dh likewise; ctr = dx * aw + acx;
size = exp(dw) * aw; boxes = torch.stack([x1, y1, x2, y2], dim=-1), clipped with
x.clamp(min=0, max=88) / y.clamp(min=0, max=72).
Scores: sigmoid(cls).max(dim=-1) -> (values, int64 indices).
Outputs: boxes (2, 297, 4), scores (2, 297), labels int64 (2, 297)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 16, 9, 11
A, K, STRIDE = 3, 7, 8
IMG_H, IMG_W = H * STRIDE, W * STRIDE
BBOX_XFORM_CLIP = math.log(1000.0 / 16)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.cls_tower = nn.Conv2d(C, C, 3, padding=1)
        self.reg_tower = nn.Conv2d(C, C, 3, padding=1)
        self.cls_logits = nn.Conv2d(C, A * K, 3, padding=1)
        self.bbox_reg = nn.Conv2d(C, A * 4, 3, padding=1)
        self.register_buffer("sizes", torch.tensor([[16.0, 16.0], [22.6, 11.3], [11.3, 22.6]]))
        self.weights = (10.0, 10.0, 5.0, 5.0)

    def _flatten(self, t, k):
        n, _, h, w = t.shape
        return t.view(n, A, k, h, w).permute(0, 3, 4, 1, 2).reshape(n, h * w * A, k)

    def anchors(self, h, w, device):
        ys = (torch.arange(h, device=device, dtype=torch.float32) + 0.5) * STRIDE
        xs = (torch.arange(w, device=device, dtype=torch.float32) + 0.5) * STRIDE
        cy, cx = torch.meshgrid(ys, xs, indexing="ij")
        cx = cx.reshape(-1, 1)
        cy = cy.reshape(-1, 1)
        aw = self.sizes[:, 0].view(1, -1)
        ah = self.sizes[:, 1].view(1, -1)
        anc = torch.stack([cx - 0.5 * aw, cy - 0.5 * ah, cx + 0.5 * aw, cy + 0.5 * ah], dim=-1)
        return anc.reshape(-1, 4)

    def decode(self, rel, anc):
        widths = anc[:, 2] - anc[:, 0]
        heights = anc[:, 3] - anc[:, 1]
        ctr_x = anc[:, 0] + 0.5 * widths
        ctr_y = anc[:, 1] + 0.5 * heights
        wx, wy, ww, wh = self.weights
        dx = rel[..., 0] / wx
        dy = rel[..., 1] / wy
        dw = (rel[..., 2] / ww).clamp(max=BBOX_XFORM_CLIP)
        dh = (rel[..., 3] / wh).clamp(max=BBOX_XFORM_CLIP)
        pcx = dx * widths + ctr_x
        pcy = dy * heights + ctr_y
        pw = torch.exp(dw) * widths
        ph = torch.exp(dh) * heights
        x1 = (pcx - 0.5 * pw).clamp(min=0, max=IMG_W)
        y1 = (pcy - 0.5 * ph).clamp(min=0, max=IMG_H)
        x2 = (pcx + 0.5 * pw).clamp(min=0, max=IMG_W)
        y2 = (pcy + 0.5 * ph).clamp(min=0, max=IMG_H)
        return torch.stack([x1, y1, x2, y2], dim=-1)

    def forward(self, feat):
        cls = self.cls_logits(F.relu(self.cls_tower(feat)))
        reg = 60.0 * self.bbox_reg(F.relu(self.reg_tower(feat)))
        cls = self._flatten(cls, K)
        reg = self._flatten(reg, 4)
        anc = self.anchors(feat.shape[2], feat.shape[3], feat.device)
        boxes = self.decode(reg, anc)
        scores, labels = torch.sigmoid(cls).max(dim=-1)
        return boxes, scores, labels


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []

"""Small YOLO-style detector whose tensors are cut into parts used in different places. Image
randn(2, 21, 25, 3).permute(0, 3, 1, 2) (2, 3, 21, 25), an NHWC-strided view. r, g, b =
img.unbind(1) -> YCbCr by hand (y = 0.299 r + 0.587 g + 0.114 b, cb = 0.564 (b - y), cr =
0.713 (r - y)), torch.stack(dim=1). Stem Conv2d 3 -> 15 (3x3, stride 2, padding 1) + silu ->
(2, 15, 11, 13). CSP split a, c = feat.chunk(2, dim=1) (8 and 7 channels, uneven); c ->
Conv2d 7 -> 7 (3x3, padding 1) + silu; re-concatenated in the other order cat([c, a], 1).
Head Conv2d 15 -> 33 (1x1) viewed (2, 3 anchors, 11, 2, 11, 13) and permuted to (2, 3, 11,
13, 11); xy, wh, obj, cls = torch.split(p, [2, 2, 1, 6], dim=-1). xy = (sigmoid * 2 - 0.5 +
grid from arange) * 2; wh = (sigmoid * 2) ** 2 * anchors buffer (3, 1, 1, 2); obj = sigmoid;
cls = softmax over the 6-class part; conf, label = (obj * cls).max(-1); boxes = cat([xy - wh / 2,
xy + wh / 2], -1). Outputs: cat([boxes, obj, cls], -1).view(2, 429, 11), conf (2, 429) and
int64 labels (2, 429)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, H, W, NA, NC, C = 2, 21, 25, 3, 6, 15


class Model(nn.Module):
    def __init__(self, n_anchors, n_classes, channels):
        super().__init__()
        self.na = n_anchors
        self.nc = n_classes
        self.stride = 2.0
        self.stem = nn.Conv2d(3, channels, 3, stride=2, padding=1)
        half = channels // 2
        self.csp = nn.Conv2d(half, half, 3, padding=1)
        self.head = nn.Conv2d(channels, n_anchors * (5 + n_classes), 1)
        self.register_buffer("anchors", torch.tensor([[1.5, 2.0], [3.0, 2.5], [4.5, 5.0]]).view(n_anchors, 1, 1, 2))

    def forward(self, img):
        r, g, b = img.unbind(1)
        y = 0.299 * r + 0.587 * g + 0.114 * b
        ycc = torch.stack([y, 0.564 * (b - y), 0.713 * (r - y)], dim=1)
        feat = F.silu(self.stem(ycc))
        a, c = feat.chunk(2, dim=1)
        c = F.silu(self.csp(c))
        feat = torch.cat([c, a], dim=1)

        p = self.head(feat)
        n, _, hh, ww = p.shape
        p = p.view(n, self.na, 5 + self.nc, hh, ww).permute(0, 1, 3, 4, 2)
        xy, wh, obj, cls = torch.split(p, [2, 2, 1, self.nc], dim=-1)
        gx = torch.arange(ww, device=p.device, dtype=p.dtype)[None, :].expand(hh, ww)
        gy = torch.arange(hh, device=p.device, dtype=p.dtype)[:, None].expand(hh, ww)
        grid = torch.stack([gx, gy], dim=-1)
        xy = (torch.sigmoid(xy) * 2 - 0.5 + grid) * self.stride
        wh = (torch.sigmoid(wh) * 2) ** 2 * self.anchors
        obj = torch.sigmoid(obj)
        cls = torch.softmax(cls, dim=-1)
        conf, label = (obj * cls).max(dim=-1)
        boxes = torch.cat([xy - wh / 2, xy + wh / 2], dim=-1)
        out = torch.cat([boxes, obj, cls], dim=-1).view(n, -1, 5 + self.nc)
        return out, conf.view(n, -1), label.view(n, -1)


def get_inputs():
    return [torch.randn(B, H, W, 3).permute(0, 3, 1, 2)]


def get_init_inputs():
    return [NA, NC, C]

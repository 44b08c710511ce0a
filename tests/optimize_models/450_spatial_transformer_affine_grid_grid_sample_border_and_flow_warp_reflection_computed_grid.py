"""Spatial transformer plus flow warp: x (2, 3, 23, 29).
Localisation net: Conv2d 3 -> 5 (k5, stride 2) + relu, F.adaptive_avg_pool2d to (3, 4)
(non-divisible), flatten, Linear 60 -> 6 with small weights and identity-affine bias, view
(2, 2, 3); grid = F.affine_grid(theta, (2, 3, 17, 19), align_corners=False);
a = F.grid_sample(x, grid, bilinear, padding_mode='border', align_corners=False).
Flow warp: base grid from torch.linspace(-1, 1) meshgrid (indexing 'ij') stacked (x, y),
flow = 0.15 * tanh(Conv2d 3 -> 2 (k3, padding 1)(x)) permuted to (2, 23, 29, 2);
b = F.grid_sample(x, base + flow, bilinear, padding_mode='reflection', align_corners=True).
Outputs: a (2, 3, 17, 19), b (2, 3, 23, 29), theta (2, 2, 3)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, C, H, W = 2, 3, 23, 29
OH, OW = 17, 19


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.loc_conv = nn.Conv2d(C, 5, kernel_size=5, stride=2)
        self.loc_fc = nn.Linear(5 * 3 * 4, 6)
        with torch.no_grad():
            self.loc_fc.weight.mul_(0.1)
            self.loc_fc.bias.copy_(torch.tensor([0.9, 0.1, 0.05, -0.1, 1.1, -0.05]))
        self.flow_conv = nn.Conv2d(C, 2, kernel_size=3, padding=1)

    def forward(self, x):
        h = F.relu(self.loc_conv(x))
        h = F.adaptive_avg_pool2d(h, (3, 4)).flatten(1)
        theta = self.loc_fc(h).view(-1, 2, 3)
        grid = F.affine_grid(theta, [x.shape[0], x.shape[1], OH, OW], align_corners=False)
        a = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)

        ys = torch.linspace(-1.0, 1.0, H, device=x.device)
        xs = torch.linspace(-1.0, 1.0, W, device=x.device)
        gy, gx = torch.meshgrid(ys, xs, indexing="ij")
        base = torch.stack((gx, gy), dim=-1).unsqueeze(0)
        flow = 0.15 * torch.tanh(self.flow_conv(x)).permute(0, 2, 3, 1)
        b = F.grid_sample(x, base + flow, mode="bilinear", padding_mode="reflection",
                          align_corners=True)
        return a, b, theta


def get_inputs():
    return [torch.randn(N, C, H, W)]


def get_init_inputs():
    return []

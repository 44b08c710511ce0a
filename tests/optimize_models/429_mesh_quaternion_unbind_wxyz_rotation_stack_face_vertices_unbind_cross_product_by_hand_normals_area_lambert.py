"""Mesh geometry with xyz / wxyz parts taken apart by unbind and recombined by hand.
Vertices randn(2, 3, 29).transpose(1, 2) (2, 29, 3) non-contiguous; int64 faces (37, 3) (three
distinct vertex ids per face); quaternion (2, 4); translation (2, 3). q = F.normalize(quat);
w, x, y, z = q.unbind(-1); rotation matrix from the nine products, torch.stack(dim=-1).view(2,
3, 3); v = (verts * scale (3,)) @ R^T + t[:, None] (2, 29, 3). Faces: v[:, faces] (2, 37, 3, 3),
v0, v1, v2 = .unbind(2); e1 = v1 - v0, e2 = v2 - v0; ax, ay, az = e1.unbind(-1), bx, by, bz =
e2.unbind(-1); cross product stack([ay bz - az by, az bx - ax bz, ax by - ay bx], -1);
area = 0.5 * norm; unit normal n = cross / (2 area + 1e-6); nx, ny, nz = n.unbind(-1) dotted
with the normalized light parameter's unbind(0) parts, relu (Lambert shading). Outputs:
transformed vertices (2, 29, 3), unit normals (2, 37, 3), areas (2, 37), shading (2, 37)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, V, NF = 2, 29, 37


class Model(nn.Module):
    def __init__(self, n_verts):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor([1.2, 0.8, 1.05]))
        self.light = nn.Parameter(torch.tensor([0.3, -0.5, 0.8]))

    def forward(self, verts, faces, quat, trans):
        b = verts.shape[0]
        q = F.normalize(quat, dim=-1)
        w, x, y, z = q.unbind(-1)
        R = torch.stack(
            [
                1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
                2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
            ],
            dim=-1,
        ).view(b, 3, 3)
        v = (verts * self.scale) @ R.transpose(1, 2) + trans[:, None, :]

        v0, v1, v2 = v[:, faces].unbind(2)
        ax, ay, az = (v1 - v0).unbind(-1)
        bx, by, bz = (v2 - v0).unbind(-1)
        cross = torch.stack([ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx], dim=-1)
        area = 0.5 * cross.norm(dim=-1)
        n = cross / (2 * area[..., None] + 1e-6)

        lx, ly, lz = F.normalize(self.light, dim=0).unbind(0)
        nx, ny, nz = n.unbind(-1)
        shade = F.relu(nx * lx + ny * ly + nz * lz)
        return v, n, area, shade


def get_inputs():
    faces = torch.stack([torch.randperm(V)[:3] for _ in range(NF)])
    return [torch.randn(B, 3, V).transpose(1, 2), faces, torch.randn(B, 4), torch.randn(B, 3)]


def get_init_inputs():
    return [V]

"""Mixed-precision Linear epilogue: bfloat16 input x (37, 45) and bfloat16 gate g (37, 51).
h = Linear 45 -> 51 on x.float() (float32); hh = h.half(); a = hh * sigmoid(hh) (silu by
hand in float16); b = tanh(hh * 0.5) + g.half() * 0.25 (bfloat16 -> float16 cast);
c = (a * b).float() + h * 0.01; row sum c.sum(-1) and row max c.amax(-1) (float32);
out = c.to(torch.bfloat16).
Outputs: bfloat16 (37, 51), float32 (37,), float32 (37,), float16 (37, 51)."""

import torch
import torch.nn as nn

B, D_IN, D_OUT = 37, 45, 51


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(D_IN, D_OUT)

    def forward(self, x, g):
        h = self.fc(x.float())
        hh = h.half()
        a = hh * torch.sigmoid(hh)
        b = torch.tanh(hh * 0.5) + g.half() * 0.25
        ab = a * b
        c = ab.float() + h * 0.01
        return c.to(torch.bfloat16), c.sum(dim=-1), c.amax(dim=-1), ab


def get_inputs():
    return [torch.randn(B, D_IN).bfloat16(), torch.randn(B, D_OUT).bfloat16()]


def get_init_inputs():
    return []

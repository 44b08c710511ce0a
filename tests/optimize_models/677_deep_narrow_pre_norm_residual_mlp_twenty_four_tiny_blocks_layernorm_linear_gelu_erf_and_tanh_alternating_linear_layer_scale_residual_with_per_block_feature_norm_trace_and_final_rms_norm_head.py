"""Deep, narrow residual MLP: input projection 13 -> 19, then 24 pre-norm residual blocks
x <- x + gamma_i * W2_i(gelu(W1_i(LayerNorm_i(x)))) with hidden width 37, gelu alternating between
approximate='none' (even blocks) and approximate='tanh' (odd blocks), per-block layer-scale vector
gamma_i initialised to 0.3, and every 6th block adding a learned constant bias to the residual
stream. The RMS of the residual stream after each block is recorded (trace). Head: manual RMSNorm
(x * rsqrt(mean(x^2) + 1e-6) * weight) then a linear to 5 outputs. Outputs: logits (B, 5),
per-block RMS trace (B, 24)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, DIN, D, HID, DOUT, DEPTH = 31, 13, 19, 37, 5, 24


class Block(nn.Module):
    def __init__(self, d, hid, approx):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, hid)
        self.fc2 = nn.Linear(hid, d)
        self.gamma = nn.Parameter(torch.full((d,), 0.3))
        self.approx = approx

    def forward(self, x):
        return x + self.gamma * self.fc2(F.gelu(self.fc1(self.ln(x)), approximate=self.approx))


class Model(nn.Module):
    def __init__(self, din, d, hid, dout, depth):
        super().__init__()
        self.inp = nn.Linear(din, d)
        self.blocks = nn.ModuleList(
            [Block(d, hid, "none" if i % 2 == 0 else "tanh") for i in range(depth)])
        self.stage_bias = nn.Parameter(torch.randn(depth // 6, d) * 0.1)
        self.norm_w = nn.Parameter(torch.ones(d))
        self.head = nn.Linear(d, dout)

    def forward(self, x):
        x = self.inp(x)
        trace = []
        for i, blk in enumerate(self.blocks):
            x = blk(x)
            if i % 6 == 5:
                x = x + self.stage_bias[i // 6]
            trace.append(x.pow(2).mean(dim=1).sqrt())
        x = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.norm_w
        return self.head(x), torch.stack(trace, dim=1)


def get_inputs():
    return [torch.randn(B, DIN)]


def get_init_inputs():
    return [DIN, D, HID, DOUT, DEPTH]

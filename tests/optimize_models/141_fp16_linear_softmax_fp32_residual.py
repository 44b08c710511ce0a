"""float16 model: Linear(29 -> 43) with bias, then softmax over the last dim computed with
dtype=torch.float32 and cast back to float16, then Linear(43 -> 29) with bias and a residual
of the float16 input. Parameters created by model.half(); input x: float16 (5, 11, 29);
output float16 (5, 11, 29)."""

import torch
import torch.nn as nn

B, S, D, HID = 5, 11, 29, 43


class Model(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden, bias=True)
        self.fc2 = nn.Linear(hidden, dim, bias=True)
        self.half()

    def forward(self, x):
        h = self.fc1(x)
        p = torch.softmax(h, dim=-1, dtype=torch.float32).to(torch.float16)
        return x + self.fc2(p)


def get_inputs():
    return [torch.randn(B, S, D).to(torch.float16)]


def get_init_inputs():
    return [D, HID]

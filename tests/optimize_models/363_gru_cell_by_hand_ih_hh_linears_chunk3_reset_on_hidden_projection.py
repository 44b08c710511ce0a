"""One GRU timestep written by hand with the exact nn.GRUCell formula: gi = nn.Linear(29 ->
3 * 45)(x), gh = nn.Linear(45 -> 3 * 45)(h), each .chunk(3, dim=1) into (r, z, n) parts;
r = sigmoid(i_r + h_r), z = sigmoid(i_z + h_z), n = tanh(i_n + r * h_n) (the reset gate
multiplies the hidden projection including its bias), h' = (1 - z) * n + z * h.
Inputs x (7, 29), h (7, 45); output (7, 45)."""

import torch
import torch.nn as nn

B, INPUT_SIZE, HIDDEN = 7, 29, 45


class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.x2h = nn.Linear(input_size, 3 * hidden_size)
        self.h2h = nn.Linear(hidden_size, 3 * hidden_size)

    def forward(self, x, hidden):
        gate_x = self.x2h(x)
        gate_h = self.h2h(hidden)
        i_r, i_z, i_n = gate_x.chunk(3, 1)
        h_r, h_z, h_n = gate_h.chunk(3, 1)
        resetgate = torch.sigmoid(i_r + h_r)
        updategate = torch.sigmoid(i_z + h_z)
        newgate = torch.tanh(i_n + resetgate * h_n)
        hy = (1 - updategate) * newgate + updategate * hidden
        return hy


def get_inputs():
    return [torch.randn(B, INPUT_SIZE), torch.randn(B, HIDDEN)]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN]

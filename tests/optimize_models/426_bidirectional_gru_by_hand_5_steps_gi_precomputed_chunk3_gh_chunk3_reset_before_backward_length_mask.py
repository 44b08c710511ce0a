"""Bidirectional GRU written by hand over 5 time steps with variable lengths. Input x =
randn(5, 4, 19).transpose(0, 1) (4, 5, 19), a batch-first non-contiguous view of a time-major
tensor; int64 lengths [5, 3, 4, 1]; mask = arange(5)[None] < lengths[:, None] (4, 5) bool.
Forward direction (nn.GRU formula): gi = Linear 19 -> 69 on all steps at once (4, 5, 69); per
step i_r, i_z, i_n = gi[:, t].chunk(3, 1), h_r, h_z, h_n = Linear 23 -> 69 (h).chunk(3, 1),
r = sigmoid(i_r + h_r), z = sigmoid(i_z + h_z), n = tanh(i_n + r * h_n), h' = (1 - z) * n + z * h.
Backward direction (t = 4 .. 0, reset-before variant): gi_b = Linear 19 -> 69 (x);
r, z = sigmoid(gi_b[:, t, :46] + Linear 23 -> 46 (h)).chunk(2, 1), n = tanh(gi_b[:, t, 46:] +
Linear 23 -> 23 (r * h)). In both, h = where(mask[:, t, None], h', h) and the step output is
where(mask, h', 0). Outputs: cat of both directions' stacked outputs (4, 5, 46) and final
hidden states stacked (2, 4, 23)."""

import torch
import torch.nn as nn

B, T, D, H = 4, 5, 19, 23


class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.ih_f = nn.Linear(input_size, 3 * hidden_size)
        self.hh_f = nn.Linear(hidden_size, 3 * hidden_size)
        self.ih_b = nn.Linear(input_size, 3 * hidden_size)
        self.hh_b_rz = nn.Linear(hidden_size, 2 * hidden_size)
        self.hh_b_n = nn.Linear(hidden_size, hidden_size)

    def forward(self, x, lengths):
        b, t_len, _ = x.shape
        hs = self.hidden_size
        mask = torch.arange(t_len, device=x.device)[None, :] < lengths[:, None]
        gi_f = self.ih_f(x)
        gi_b = self.ih_b(x)

        h = x.new_zeros(b, hs)
        outs_f = []
        for t in range(t_len):
            i_r, i_z, i_n = gi_f[:, t].chunk(3, 1)
            h_r, h_z, h_n = self.hh_f(h).chunk(3, 1)
            r = torch.sigmoid(i_r + h_r)
            z = torch.sigmoid(i_z + h_z)
            n = torch.tanh(i_n + r * h_n)
            h_new = (1 - z) * n + z * h
            m = mask[:, t, None]
            h = torch.where(m, h_new, h)
            outs_f.append(torch.where(m, h_new, 0.0))
        h_f = h

        h = x.new_zeros(b, hs)
        outs_b = [None] * t_len
        for t in reversed(range(t_len)):
            gi = gi_b[:, t]
            r, z = torch.sigmoid(gi[:, : 2 * hs] + self.hh_b_rz(h)).chunk(2, 1)
            n = torch.tanh(gi[:, 2 * hs :] + self.hh_b_n(r * h))
            h_new = (1 - z) * n + z * h
            m = mask[:, t, None]
            h = torch.where(m, h_new, h)
            outs_b[t] = torch.where(m, h_new, 0.0)
        h_b = h

        out = torch.cat([torch.stack(outs_f, dim=1), torch.stack(outs_b, dim=1)], dim=-1)
        return out, torch.stack([h_f, h_b], dim=0)


def get_inputs():
    return [torch.randn(T, B, D).transpose(0, 1), torch.tensor([5, 3, 4, 1], dtype=torch.int64)]


def get_init_inputs():
    return [D, H]

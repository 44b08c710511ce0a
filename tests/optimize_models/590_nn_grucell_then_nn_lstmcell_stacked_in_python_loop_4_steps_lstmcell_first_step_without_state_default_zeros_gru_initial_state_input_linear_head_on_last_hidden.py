"""Two stacked recurrent cells called in a Python loop over 4 time steps.
x = randn(3, 4, 5), h0 = randn(3, 12).
Each step: h1 = nn.GRUCell(5, 12)(x[:, t], h1) (h1 starts at h0);
(h2, c2) = nn.LSTMCell(12, 10)(h1) at t = 0 (no state passed: default zeros) and
nn.LSTMCell(12, 10)(h1, (h2, c2)) afterwards.
head = Linear(10 -> 3)(h2 at the last step) followed by tanh.
Outputs: head (3, 3), stacked LSTM hidden states (3, 4, 10), final GRU state h1 (3, 12)."""

import torch
import torch.nn as nn

B, T, I, H1, H2, O = 3, 4, 5, 12, 10, 3


class Model(nn.Module):
    def __init__(self, input_size, h1, h2, out):
        super().__init__()
        self.gru = nn.GRUCell(input_size, h1)
        self.lstm = nn.LSTMCell(h1, h2)
        self.head = nn.Linear(h2, out)

    def forward(self, x, h0):
        h1 = h0
        state = None
        hs = []
        for t in range(x.shape[1]):
            h1 = self.gru(x[:, t], h1)
            if state is None:
                state = self.lstm(h1)
            else:
                state = self.lstm(h1, state)
            hs.append(state[0])
        return torch.tanh(self.head(state[0])), torch.stack(hs, dim=1), h1


def get_inputs():
    return [torch.randn(B, T, I), torch.randn(B, H1)]


def get_init_inputs():
    return [I, H1, H2, O]

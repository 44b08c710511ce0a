"""Layer-normalised LSTM with peephole connections, unrolled over two time steps, entirely in
float16 (the model is .half() and so are all inputs and outputs).
x float16 (9, 2, 21) (batch-first, 2 steps), h0 float16 (9, 27), c0 float16 (9, 27).
Per step t: gi = LayerNorm_ih(W_ih x_t) (Linear 21 -> 108, no bias; LayerNorm(108)),
gh = LayerNorm_hh(W_hh h) (Linear 27 -> 108, no bias; LayerNorm(108)); g = gi + gh + bias (108,);
i, f, gc, o = g.chunk(4, dim=1); i = sigmoid(i + w_ci * c); f = sigmoid(f + w_cf * c + 1.0)
(forget bias); c_new = f * c + i * tanh(gc); o = sigmoid(o + w_co * c_new) (peepholes are (27,)
vectors); h_new = o * tanh(LayerNorm_c(c_new)) (LayerNorm(27)).
Outputs (float16): hidden states stacked on dim 1 (9, 2, 27) and the final cell state (9, 27)."""

import torch
import torch.nn as nn

B, T, IN, HID = 9, 2, 21, 27


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w_ih = nn.Linear(IN, 4 * HID, bias=False)
        self.w_hh = nn.Linear(HID, 4 * HID, bias=False)
        self.ln_ih = nn.LayerNorm(4 * HID)
        self.ln_hh = nn.LayerNorm(4 * HID)
        self.ln_c = nn.LayerNorm(HID)
        self.bias = nn.Parameter(0.1 * torch.randn(4 * HID))
        self.w_ci = nn.Parameter(0.3 * torch.randn(HID))
        self.w_cf = nn.Parameter(0.3 * torch.randn(HID))
        self.w_co = nn.Parameter(0.3 * torch.randn(HID))
        with torch.no_grad():
            for ln in (self.ln_ih, self.ln_hh, self.ln_c):
                ln.weight.copy_(1.0 + 0.1 * torch.randn_like(ln.weight))
                ln.bias.copy_(0.1 * torch.randn_like(ln.bias))
        self.half()

    def cell(self, x, h, c):
        g = self.ln_ih(self.w_ih(x)) + self.ln_hh(self.w_hh(h)) + self.bias
        i, f, gc, o = g.chunk(4, dim=1)
        i = torch.sigmoid(i + self.w_ci * c)
        f = torch.sigmoid(f + self.w_cf * c + 1.0)
        c_new = f * c + i * torch.tanh(gc)
        o = torch.sigmoid(o + self.w_co * c_new)
        h_new = o * torch.tanh(self.ln_c(c_new))
        return h_new, c_new

    def forward(self, x, h0, c0):
        h, c = h0, c0
        outs = []
        for t in range(x.shape[1]):
            h, c = self.cell(x[:, t], h, c)
            outs.append(h)
        return torch.stack(outs, dim=1), c


def get_inputs():
    return [
        torch.randn(B, T, IN).half(),
        torch.randn(B, HID).half(),
        torch.randn(B, HID).half(),
    ]


def get_init_inputs():
    return []

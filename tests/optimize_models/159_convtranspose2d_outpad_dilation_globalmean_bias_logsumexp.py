"""nn.ConvTranspose2d (kernel 3, stride 3, padding 2, output_padding 2, dilation 2, bias)
-> global average pool x.mean(dim=(2, 3), keepdim=True) -> (C,1,1) bias add ->
logsumexp over channels (keepdim). Transposed-conv weights are randn * 0.5 and the
input carries a random per-sample, per-channel offset, so the pooled values spread
over a few units and depend clearly on the input.
Input (4, 5, 13, 11); transposed conv gives (4, 11, 39, 33); output (4, 1, 1, 1)."""

import torch
import torch.nn as nn

N, C_IN, C_OUT, H, W = 4, 5, 11, 13, 11


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(
            c_in, c_out, kernel_size=3, stride=3, padding=2,
            output_padding=2, dilation=2, bias=True,
        )
        with torch.no_grad():
            # larger than the default init so the pooled values spread over a few units
            self.deconv.weight.copy_(torch.randn_like(self.deconv.weight) * 0.5)
        self.bias = nn.Parameter(torch.randn(c_out, 1, 1))

    def forward(self, x):
        x = self.deconv(x)
        x = x.mean(dim=(2, 3), keepdim=True)
        x = x + self.bias
        return torch.logsumexp(x, dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(N, C_IN, H, W) + torch.randn(N, C_IN, 1, 1)]


def get_init_inputs():
    return [C_IN, C_OUT]

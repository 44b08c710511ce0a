"""1-D moving averages of a float16 multichannel signal (B, C, L): avg_pool1d (kernel 7, stride 1,
padding 3, count_include_pad=False) in float16; depthwise conv1d with a uniform (C, 1, 5) float16
buffer (zero padding 2, edges biased); cumsum-based window-5 mean computed in float32 with a
zero-prepended cumsum and a slice difference (valid part only), cast back to float16; strided
avg_pool1d (kernel 4, stride 3); detrended signal x - moving average. Outputs (all float16):
pool mean, conv mean, detrended, downsampled; plus a float32 0-dim max |conv - cumsum| on the
valid region."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, C, L = 4, 5, 211


class Model(nn.Module):
    def __init__(self, channels, k):
        super().__init__()
        self.register_buffer("kernel", torch.full((channels, 1, k), 1.0 / k, dtype=torch.float16))
        self.channels = channels
        self.k = k

    def forward(self, x):
        m7 = F.avg_pool1d(x, kernel_size=7, stride=1, padding=3, count_include_pad=False)
        m5 = F.conv1d(x, self.kernel, padding=self.k // 2, groups=self.channels)
        xf = x.float()
        cs = torch.cumsum(xf, dim=-1)
        cs = torch.cat([torch.zeros_like(cs[..., :1]), cs], dim=-1)
        m5_cs = (cs[..., self.k:] - cs[..., :-self.k]) / self.k  # (B, C, L - k + 1)
        pad = self.k // 2
        err = (m5[..., pad:-pad].float() - m5_cs).abs().amax()
        detrended = x - m7
        down = F.avg_pool1d(x, kernel_size=4, stride=3)
        return m7, m5, detrended, down, err, m5_cs.to(torch.float16)


def get_inputs():
    return [torch.randn(B, C, L).to(torch.float16)]


def get_init_inputs():
    return [C, 5]

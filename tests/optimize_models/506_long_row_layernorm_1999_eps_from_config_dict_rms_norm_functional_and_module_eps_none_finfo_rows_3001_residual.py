"""LayerNorm and RMSNorm over long odd rows with eps values taken from a config dict (as
Hugging Face models do), including RMSNorm with eps=None (uses torch.finfo(dtype).eps).
config = {"hidden": 1999, "wide": 3001, "layer_norm_eps": 1e-5, "rms_norm_eps": 1e-6}.
x = randn(3, 5, 1999) * 2 + 0.5; r = randn(4, 3001).
h = F.layer_norm(x, (1999,), ln_weight, ln_bias, eps=config["layer_norm_eps"]);
g = F.rms_norm(h + 0.1 * x, (1999,), rms_weight, eps=config["rms_norm_eps"]);
out1 = g * sigmoid(h) (3, 5, 1999).
s = nn.RMSNorm(3001, eps=None) (weight randomised) of r -> eps = finfo(float32).eps;
u = F.layer_norm(s + r, (3001,), eps=config["layer_norm_eps"]) (no affine);
out2 = u + F.rms_norm(r, (3001,)) (no weight, eps None) (4, 3001).
Outputs: out1 (3, 5, 1999), out2 (4, 3001)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = dict(config)
        d, w = config["hidden"], config["wide"]
        self.ln_weight = nn.Parameter(1.0 + 0.1 * torch.randn(d))
        self.ln_bias = nn.Parameter(0.1 * torch.randn(d))
        self.rms_weight = nn.Parameter(1.0 + 0.1 * torch.randn(d))
        self.rms = nn.RMSNorm(w, eps=None)
        with torch.no_grad():
            self.rms.weight.copy_(1.0 + 0.1 * torch.randn(w))

    def forward(self, x, r):
        cfg = self.config
        d, w = cfg["hidden"], cfg["wide"]
        h = F.layer_norm(x, (d,), self.ln_weight, self.ln_bias, eps=cfg["layer_norm_eps"])
        g = F.rms_norm(h + 0.1 * x, (d,), self.rms_weight, eps=cfg["rms_norm_eps"])
        out1 = g * torch.sigmoid(h)
        s = self.rms(r)
        u = F.layer_norm(s + r, (w,), eps=cfg["layer_norm_eps"])
        out2 = u + F.rms_norm(r, (w,))
        return out1, out2


def get_inputs():
    return [torch.randn(3, 5, 1999) * 2.0 + 0.5, torch.randn(4, 3001)]


def get_init_inputs():
    return [{"hidden": 1999, "wide": 3001, "layer_norm_eps": 1e-5, "rms_norm_eps": 1e-6}]

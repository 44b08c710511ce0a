"""Float16 LM head with the loss written by hand. Hidden states float16 randn(3, 11, 48)[..., ::2]
(3, 11, 24), a step-sliced non-contiguous view; lm head Linear 24 -> 97 in float16 (model
.half()). Targets int64 (3, 11) in [0, 97) with -100 at ignored positions; valid = t != -100,
tt = t.masked_fill(~valid, 0). In float32 (z = logits.float()): lse = logsumexp(z, -1), picked
logit z.gather(-1, tt[..., None]) (gather along the last dim), nll = lse - picked, uniform
label-smoothing term lse - z.mean(-1), token loss 0.9 * nll + 0.1 * smooth + 1e-4 * lse ** 2
(PaLM z-loss), zeroed at ignored positions; mean over valid tokens. In float16: the picked
logit logits.gather(-1, tt[..., None]) and the picked probability softmax(logits,
-1).gather(...) (computed by torch in float16). Outputs the 0-dim float32 loss, the float16
per-token loss (3, 11), the float16 picked logits (3, 11) and float16 picked probabilities
(3, 11)."""

import torch
import torch.nn as nn

B, T, H, V, IGNORE = 3, 11, 24, 97, -100


class Model(nn.Module):
    def __init__(self, hidden, vocab, smoothing, z_coef):
        super().__init__()
        self.smoothing = smoothing
        self.z_coef = z_coef
        self.head = nn.Linear(hidden, vocab)
        self.half()

    def forward(self, h, t):
        logits = self.head(h)
        valid = t != IGNORE
        tt = t.masked_fill(~valid, 0)
        z = logits.float()
        lse = torch.logsumexp(z, dim=-1)
        picked = z.gather(-1, tt[..., None]).squeeze(-1)
        nll = lse - picked
        smooth = lse - z.mean(dim=-1)
        tok = (1.0 - self.smoothing) * nll + self.smoothing * smooth + self.z_coef * lse * lse
        tok = tok * valid.to(tok.dtype)
        loss = tok.sum() / valid.sum().clamp_min(1).to(tok.dtype)
        picked16 = logits.gather(-1, tt[..., None]).squeeze(-1)
        prob16 = torch.softmax(logits, dim=-1).gather(-1, tt[..., None]).squeeze(-1)
        return loss, tok.half(), picked16, prob16


def get_inputs():
    h = torch.randn(B, T, 2 * H).half()[..., ::2]
    t = torch.randint(0, V, (B, T), dtype=torch.int64)
    t[0, 8:] = IGNORE
    t[2, 3] = IGNORE
    return [h, t]


def get_init_inputs():
    return [H, V, 0.1, 1e-4]

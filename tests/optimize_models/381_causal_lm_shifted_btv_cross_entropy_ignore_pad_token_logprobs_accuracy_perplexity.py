"""Causal-LM sequence loss over a (B, T, V) vocabulary (Hugging Face style, no CTC): hidden
(3, 21, 32) -> nn.Linear(32 -> 127, no bias) logits (3, 21, 127); shift_logits =
logits[:, :-1, :].contiguous(), shift_labels = labels[:, 1:].contiguous() with int64 labels
(3, 21) in [0, 127) and -100 padding at the end of rows 0 and 2; loss =
F.cross_entropy(shift_logits.view(-1, 127), shift_labels.view(-1), ignore_index=-100);
per-token log-probs log_softmax(shift_logits).gather(-1, shift_labels.clamp_min(0)[..., None])
masked by labels != -100 (3, 20); token accuracy of argmax(-1) over the non-pad positions and
perplexity exp(loss). Outputs 0-dim loss, (3, 20) log-probs, 0-dim accuracy, 0-dim ppl."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, T, D, V = 3, 21, 32, 127


class Model(nn.Module):
    def __init__(self, dim, vocab):
        super().__init__()
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, hidden, labels):
        logits = self.lm_head(hidden)
        shift_logits = logits[:, :-1, :].contiguous()
        shift_labels = labels[:, 1:].contiguous()
        v = shift_logits.size(-1)
        loss = F.cross_entropy(shift_logits.view(-1, v), shift_labels.view(-1), ignore_index=-100)
        mask = shift_labels != -100
        lp = F.log_softmax(shift_logits, dim=-1)
        tok_lp = lp.gather(-1, shift_labels.clamp_min(0).unsqueeze(-1)).squeeze(-1)
        tok_lp = tok_lp * mask.to(tok_lp.dtype)
        preds = shift_logits.argmax(dim=-1)
        correct = (preds == shift_labels) & mask
        acc = correct.sum().to(loss.dtype) / mask.sum().to(loss.dtype)
        return loss, tok_lp, acc, torch.exp(loss)


def get_inputs():
    labels = torch.randint(0, V, (B, T), dtype=torch.int64)
    labels[0, 15:] = -100
    labels[2, 18:] = -100
    return [torch.randn(B, T, D), labels]


def get_init_inputs():
    return [D, V]

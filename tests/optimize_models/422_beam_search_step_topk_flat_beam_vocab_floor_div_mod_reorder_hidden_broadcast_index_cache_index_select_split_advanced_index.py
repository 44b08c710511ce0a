"""One beam-search step for 2 sentences x 3 beams, vocab 41. Hidden states (6, 20) -> lm head
Linear 20 -> 41 -> log_softmax, viewed (2, 3, 41); candidate scores beam_scores (2, 3)[..., None]
+ lp flattened to (2, 123); top_s, top_i = topk(3, dim=1); beam_idx = torch.div(top_i, 41,
rounding_mode='floor'), tok = top_i % 41. Reorders: new hidden = hidden.view(2, 3, 20)[arange(2)
[:, None], beam_idx] (broadcast index tensors (2, 1) and (2, 3)); flat beam ids (beam_idx +
arange(2)[:, None] * 3).view(-1) (6,) select the KV cache rows k_cache.index_select(0, flat)
and v_cache[flat], caches (6, 2, 7, 6) with k_cache given as randn(6, 7, 2, 6).transpose(1, 2)
(non-contiguous); the last cached key of each new beam k_cache[flat, :, cur_len[flat] - 1]
(two index tensors split by a slice -> (6, 2, 6)) with int64 cur_len (6,) in [1, 7]; the picked
token log-probability lp[arange(2)[:, None], beam_idx, tok] (2, 3). Outputs top scores (2, 3),
int64 tokens (2, 3), int64 beam indices (2, 3), reordered hidden (2, 3, 20), reordered caches
(6, 2, 7, 6) x 2, last keys (6, 2, 6) and picked log-probs (2, 3)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

NB, BEAM, V, D, H, S, DH = 2, 3, 41, 20, 2, 7, 6


class Model(nn.Module):
    def __init__(self, dim, vocab, beam):
        super().__init__()
        self.beam = beam
        self.head = nn.Linear(dim, vocab)

    def forward(self, hidden, beam_scores, k_cache, v_cache, cur_len):
        nb, beam = beam_scores.shape
        lp = F.log_softmax(self.head(hidden), dim=-1)
        vocab = lp.shape[-1]
        lp = lp.view(nb, beam, vocab)
        cand = (beam_scores[..., None] + lp).view(nb, beam * vocab)
        top_s, top_i = cand.topk(self.beam, dim=1)
        beam_idx = torch.div(top_i, vocab, rounding_mode="floor")
        tok = top_i % vocab
        rows = torch.arange(nb, device=hidden.device)[:, None]
        new_hidden = hidden.view(nb, beam, -1)[rows, beam_idx]
        flat = (beam_idx + rows * beam).view(-1)
        k_new = k_cache.index_select(0, flat)
        v_new = v_cache[flat]
        last_k = k_cache[flat, :, cur_len[flat] - 1]
        picked = lp[rows, beam_idx, tok]
        return top_s, tok, beam_idx, new_hidden, k_new, v_new, last_k, picked


def get_inputs():
    beam_scores = -torch.rand(NB, BEAM) * 4.0 - torch.arange(BEAM, dtype=torch.float32)
    return [torch.randn(NB * BEAM, D) * 2.0,
            beam_scores,
            torch.randn(NB * BEAM, S, H, DH).transpose(1, 2),
            torch.randn(NB * BEAM, H, S, DH),
            torch.randint(1, S + 1, (NB * BEAM,), dtype=torch.int64)]


def get_init_inputs():
    return [D, V, BEAM]

"""vLLM-style paged KV cache decode step with grouped-query attention. Hidden states x (3, 32)
for one new token per sequence; q = Linear 32 -> 32 (4 heads of 8), k, v = Linear 32 -> 16
(2 kv heads of 8). KV pools k_pool, v_pool (14, 4, 2, 8) (num_blocks, block_size, kv heads,
head dim), v_pool given as randn(14, 2, 4, 8).transpose(1, 2) (non-contiguous); int32 block
table (3, 5) of physical block ids (distinct per sequence, unused tail entries 0); int64 seq_lens
(3,) = [17, 9, 20] including the new token. Write (reshape_and_cache): pos = seq_lens - 1,
phys = block_table[arange(3), pos // 4] (advanced indexing with two index tensors), off =
pos % 4, k_pool.index_put((phys.long(), off), k) and the same for v (out of place). Read:
keys = k_pool_new[block_table] (int32 advanced indexing -> (3, 5, 4, 2, 8)).reshape(3, 20, 2,
8), values = v_pool_new.index_select(0, block_table.flatten()).view(3, 20, 2, 8); scores
einsum('bhgd,bshd->bhgs') of q.view(3, 2, 2, 8) / sqrt(8), positions arange(20) >= seq_lens
masked to -inf, softmax, einsum back -> (3, 32) -> o_proj Linear 32 -> 32. Outputs attention
output (3, 32) and the updated k_pool and v_pool (14, 4, 2, 8)."""

import torch
import torch.nn as nn

B, D, HQ, HKV, DH, NBLK, BS, MAXBLK = 3, 32, 4, 2, 8, 14, 4, 5


class Model(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, head_dim, block_size):
        super().__init__()
        self.hq, self.hkv, self.dh, self.bs = n_heads, n_kv_heads, head_dim, block_size
        self.q_proj = nn.Linear(dim, n_heads * head_dim)
        self.k_proj = nn.Linear(dim, n_kv_heads * head_dim)
        self.v_proj = nn.Linear(dim, n_kv_heads * head_dim)
        self.o_proj = nn.Linear(n_heads * head_dim, dim)

    def forward(self, x, k_pool, v_pool, block_table, seq_lens):
        b = x.shape[0]
        hq, hkv, dh, bs = self.hq, self.hkv, self.dh, self.bs
        q = self.q_proj(x).view(b, hkv, hq // hkv, dh)
        k = self.k_proj(x).view(b, hkv, dh)
        v = self.v_proj(x).view(b, hkv, dh)

        pos = seq_lens - 1
        rows = torch.arange(b, device=x.device)
        phys = block_table[rows, torch.div(pos, bs, rounding_mode="floor")].long()
        off = pos % bs
        k_pool = k_pool.index_put((phys, off), k)
        v_pool = v_pool.index_put((phys, off), v)

        nb = block_table.shape[1]
        keys = k_pool[block_table].reshape(b, nb * bs, hkv, dh)
        values = v_pool.index_select(0, block_table.flatten()).view(b, nb * bs, hkv, dh)
        scores = torch.einsum("bhgd,bshd->bhgs", q, keys) / dh ** 0.5
        invalid = torch.arange(nb * bs, device=x.device)[None, :] >= seq_lens[:, None]
        scores = scores.masked_fill(invalid[:, None, None, :], float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        out = torch.einsum("bhgs,bshd->bhgd", attn, values).reshape(b, hq * dh)
        return self.o_proj(out), k_pool, v_pool


def get_inputs():
    block_table = torch.tensor([[3, 7, 0, 12, 5],
                                [9, 1, 13, 0, 0],
                                [2, 11, 4, 8, 10]], dtype=torch.int32)
    seq_lens = torch.tensor([17, 9, 20], dtype=torch.int64)
    return [torch.randn(B, D),
            torch.randn(NBLK, BS, HKV, DH),
            torch.randn(NBLK, HKV, BS, DH).transpose(1, 2),
            block_table, seq_lens]


def get_init_inputs():
    return [D, HQ, HKV, DH, BS]

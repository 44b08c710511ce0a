"""MLP-Mixer block in float16 end to end (parameters created with dtype=torch.float16,
float16 input and output): token mixing x + mlp_tokens(norm1(x).transpose(1, 2)).transpose(1,
2) with nn.Linear(25 -> 64) -> GELU -> nn.Linear(64 -> 25) across the 25 patches, then
channel mixing x + mlp_channels(norm2(x)) with nn.Linear(40 -> 160) -> GELU ->
nn.Linear(160 -> 40); nn.LayerNorm(40, eps=1e-6) float16 (random affine).
Input (2, 25, 40) float16; output (2, 25, 40) float16."""

import torch
import torch.nn as nn

B, TOKENS, CHANNELS, TOKEN_HIDDEN, CHANNEL_HIDDEN = 2, 25, 40, 64, 160
DTYPE = torch.float16


class MlpBlock(nn.Module):
    def __init__(self, dim, hidden, dtype):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden, dtype=dtype)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim, dtype=dtype)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Model(nn.Module):
    def __init__(self, num_tokens, dim, token_hidden, channel_hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6, dtype=DTYPE)
        self.mlp_tokens = MlpBlock(num_tokens, token_hidden, DTYPE)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6, dtype=DTYPE)
        self.mlp_channels = MlpBlock(dim, channel_hidden, DTYPE)
        with torch.no_grad():
            for norm in (self.norm1, self.norm2):
                norm.weight.copy_(torch.randn(dim) * 0.2 + 1.0)
                norm.bias.copy_(torch.randn(dim) * 0.1)

    def forward(self, x):
        x = x + self.mlp_tokens(self.norm1(x).transpose(1, 2)).transpose(1, 2)
        x = x + self.mlp_channels(self.norm2(x))
        return x


def get_inputs():
    return [torch.randn(B, TOKENS, CHANNELS, dtype=DTYPE)]


def get_init_inputs():
    return [TOKENS, CHANNELS, TOKEN_HIDDEN, CHANNEL_HIDDEN]

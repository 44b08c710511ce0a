"""ELU on one 1 GiB float32 input: large enough that memory use per worker matters."""
import torch

from elu import Model, get_init_inputs  # noqa: F401  (a problem file's siblings are importable)


def get_inputs():
    return [torch.randn(16384, 16384)]

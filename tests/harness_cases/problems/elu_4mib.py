"""ELU on a 4 MiB input: large enough that the exchange files' sizes, not their margins,
decide whether an evaluation fits a small exchange space."""
import torch

from elu import Model, get_init_inputs  # noqa: F401  (a problem file's siblings are importable)


def get_inputs():
    return [torch.rand(1024, 1024)]

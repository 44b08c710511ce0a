"""ELU on one float32 input of KW_TEST_ELEMENTS elements (rows of 1024): sized by the test, up
to more than a device holds."""
import os

import torch

from elu import Model, get_init_inputs  # noqa: F401  (a problem file's siblings are importable)

ROWS = max(1, int(os.environ.get("KW_TEST_ELEMENTS", "16384")) // 1024)


def get_inputs():
    return [torch.randn(ROWS, 1024)]

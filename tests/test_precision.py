import pytest
import torch

from kernelwright import precision


@pytest.mark.parametrize("level,tf32", [("highest", False), ("high", True), ("medium", True)])
def test_the_contract_sets_matmul_precision_and_cudnn_tf32_and_restores_them(level, tf32):
    before = torch.get_float32_matmul_precision(), torch.backends.cudnn.allow_tf32
    with precision.contract(level):
        assert torch.get_float32_matmul_precision() == level
        assert torch.backends.cudnn.allow_tf32 is tf32
    assert (torch.get_float32_matmul_precision(), torch.backends.cudnn.allow_tf32) == before


def test_an_unknown_precision_is_refused_and_changes_nothing():
    before = torch.get_float32_matmul_precision(), torch.backends.cudnn.allow_tf32
    with pytest.raises(ValueError, match="precision must be one of highest, high, medium, got 'fast'"):
        precision.apply("fast")
    assert (torch.get_float32_matmul_precision(), torch.backends.cudnn.allow_tf32) == before

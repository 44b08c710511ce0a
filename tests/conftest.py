import pytest
import torch


def _cuda_available():
    return torch.cuda.is_available() and torch.cuda.device_count() > 0


def pytest_collection_modifyitems(config, items):
    if _cuda_available():
        return
    skip = pytest.mark.skip(reason="no CUDA device")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)


# One test body, run on each device: CPU always, CUDA where there is one.
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)]


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param

import os

import pytest
import torch


def _cuda_available():
    return torch.cuda.is_available() and torch.cuda.device_count() > 0


def pytest_collection_modifyitems(config, items):
    # KERNELWRIGHT_TEST_SHARD=i/n keeps every n-th test from the i-th (0-based), so that n
    # processes, one a GPU, run the suite between them.
    shard = os.environ.get("KERNELWRIGHT_TEST_SHARD")
    if shard:
        i, n = (int(v) for v in shard.split("/"))
        kept = items[i::n]
        ids = {id(t) for t in kept}
        config.hook.pytest_deselected(items=[t for t in items if id(t) not in ids])
        items[:] = kept
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

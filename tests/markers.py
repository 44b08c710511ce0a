"""Skip markers that several test modules share."""

import pytest

from kernelwright.kernel import nvrtc


def _nvrtc_works():
    try:
        nvrtc.nvrtc_version()
        return True
    except Exception:  # noqa: BLE001 - any failure to reach NVRTC means: skip
        return False


needs_nvrtc = pytest.mark.skipif(not _nvrtc_works(), reason="cuda-bindings with an NVRTC library is not installed")

"""Builds kernelwright._C ahead of time: with CUDA kernels when a CUDA build of torch and nvcc
are present (no GPU needed), CPU kernels only otherwise. Run through pip, see README.md."""

import importlib.util
import json
import os
import shutil
import time

from setuptools import setup
from setuptools.command.build_py import build_py

from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

ROOT = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(ROOT, "csrc")


def _load_sources_module():
    path = os.path.join(ROOT, "src", "kernelwright", "_build", "sources.py")
    spec = importlib.util.spec_from_file_location("_kw_sources", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sources = _load_sources_module()
WITH_CUDA = sources.cuda_toolchain_available()
CUTLASS = sources.cutlass_include()


class TimedBuildExtension(BuildExtension):
    """Records what the module was built from, so the loader can tell a stale build (sources
    or torch changed since) and rebuild it, and how long the build took: pip shows a build's
    output only with -v, so `kernelwright info` reports the time from that record."""

    def run(self):
        start = time.time()
        print("kernelwright: building the extension (%s)" % ("CPU + CUDA" if WITH_CUDA else "CPU only"))
        if WITH_CUDA and CUTLASS is None:
            print("kernelwright: CUTLASS's headers not found (pip install nvidia-cutlass): the GEMMs "
                  "(linear, matmul) are left out and run on cuBLAS")
        super().run()
        import torch

        build_s = time.time() - start
        for ext in self.extensions:
            info_path = os.path.join(os.path.dirname(self.get_ext_fullpath(ext.name)), sources.INFO_FILE)
            with open(info_path, "w") as f:
                json.dump(
                    {
                        "source_hash": sources.source_hash(CSRC),
                        "cuda": WITH_CUDA,
                        "cutlass": WITH_CUDA and CUTLASS is not None,
                        "torch": torch.__version__,
                        "build_s": round(build_s, 1),
                        "built_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                    },
                    f,
                )
        print("kernelwright: extension built in %.1f s" % build_s)


class BuildPyWithSources(build_py):
    """Ships csrc/ inside the package, so an installed copy can rebuild itself when stale, and
    the bundled problems, for `kernelwright run`."""

    def run(self):
        super().run()
        for source, name in ((CSRC, "_csrc"), (os.path.join(ROOT, "problems"), "_problems")):
            target = os.path.join(self.build_lib, "kernelwright", name)
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)


def _extension():
    cxx, nvcc = sources.compile_flags(WITH_CUDA)
    kwargs = dict(
        name=sources.EXT_NAME,
        sources=[os.path.relpath(p, ROOT) for p in sources.source_list(CSRC, WITH_CUDA)],
        include_dirs=sources.include_dirs(CSRC, WITH_CUDA),
    )
    if WITH_CUDA:
        return CUDAExtension(extra_compile_args={"cxx": cxx, "nvcc": nvcc}, **kwargs)
    return CppExtension(extra_compile_args={"cxx": cxx}, **kwargs)


setup(
    ext_modules=[_extension()],
    cmdclass={"build_ext": TimedBuildExtension, "build_py": BuildPyWithSources},
)

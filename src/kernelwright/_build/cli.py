"""`kernelwright build` and `kernelwright info`."""

import time


def register(subparsers):
    p = subparsers.add_parser("build", help="compile the ops now (just in time) and report where they came from")
    p.add_argument("--force", action="store_true", help="recompile even if a current build exists")
    p.set_defaults(func=_build)
    p = subparsers.add_parser("info", help="versions, devices and the state of the compiled ops")
    p.set_defaults(func=_info)


def _build(args):
    from kernelwright._build import loader

    start = time.time()
    module = loader.jit_build(force=True) if args.force else loader.load_extension()
    print("kernelwright ops loaded from %s (%.1f s)" % (module.__file__, time.time() - start))
    return 0


def _info(args):
    import torch

    import kernelwright
    from kernelwright._build import loader, sources
    from kernelwright._build.cache import cache_root

    status, info = loader._aot_status()
    rows = [
        ("kernelwright", kernelwright.__version__),
        ("torch", torch.__version__),
        ("CUDA (torch)", str(torch.version.cuda)),
        ("GPUs", ", ".join(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())) or "none"),
        ("CUDA toolchain for builds", "yes" if sources.cuda_toolchain_available() else "no"),
        ("ahead-of-time build", "current" if status == "current" else "not used: " + status),
        ("cache", cache_root()),
    ]
    if info:
        rows.append(("built with CUDA kernels", "yes" if info.get("cuda") else "no"))
        if info.get("cuda") and "cutlass" in info:
            rows.append(("built with the CUTLASS GEMMs", "yes" if info["cutlass"] else
                         "no: CUTLASS's headers were not found (pip install nvidia-cutlass), linear runs on cuBLAS"))
        if info.get("build_s") is not None:
            rows.append(("ahead-of-time build took", "%.1f s, %s" % (info["build_s"], info.get("built_at"))))
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print("%-*s  %s" % (width, k, v))
    return 0

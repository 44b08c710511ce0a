"""The ``kernelwright`` command. Each subcommand lives with the code it drives."""

import argparse
import sys


def _subcommands():
    # Imported lazily so that `kernelwright --help` never loads torch or the extension.
    from kernelwright import run
    from kernelwright._build import cli as build_cli
    from kernelwright.harness import cli as harness_cli
    from kernelwright.optimize import cli as optimize_cli

    return [run, harness_cli, optimize_cli, build_cli]


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="kernelwright",
        description="CUDA kernels as PyTorch custom ops, and an honest harness to evaluate them.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _subcommands():
        module.register(sub)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

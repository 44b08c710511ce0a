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


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Appends each option's default to its help, except where there is none to show (None,
    or False for a switch) or the help already says what it is."""

    def _get_help_string(self, action):
        if action.default in (None, False) or "default" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    """Subcommand parsers are made of the parent's class, so they get the formatter too."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


def main(argv=None):
    parser = _Parser(
        prog="kernelwright",
        description="CUDA kernels as PyTorch custom ops, an honest harness to evaluate them, and a compiler "
                    "from a Model to a verified ModelNew with generated kernels.",
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

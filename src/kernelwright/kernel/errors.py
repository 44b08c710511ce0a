"""Errors raised while binding, compiling, checking and launching a user kernel.

Every error is raised before anything reaches the GPU, except ``KernelLaunchError``,
which reports a failure the driver returned for a launch that passed every check.
"""


class KernelSignatureError(ValueError):
    """The kernel's parameters, the schema and the options don't fit together."""


class KernelInputError(ValueError):
    """A call's arguments don't match what the kernel was declared to take."""


class LaunchConfigError(ValueError):
    """A grid, block or shared-memory size the device or the kernel can't run."""


class KernelLaunchError(RuntimeError):
    """The driver refused a launch."""


class KernelCompileError(RuntimeError):
    """The compiler rejected the source; ``log`` holds its output, ``line`` the first error line.

    Line numbers in the log are those of the user's source: whatever kernelwright adds in
    front of it is hidden behind a ``#line`` directive.
    """

    def __init__(self, message, log="", filename=None, line=None):
        super().__init__(message)
        self.log = log
        self.filename = filename
        self.line = line

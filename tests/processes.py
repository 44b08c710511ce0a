"""What tests look up about the machine's processes."""

import os


def processes_mentioning(text):
    """Pids of the processes whose command line contains ``text``."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if text.encode() in f.read():
                    found.append(int(pid))
        except (OSError, ValueError):
            continue
    return found

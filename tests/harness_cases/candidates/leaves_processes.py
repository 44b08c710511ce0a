"""Correct ELU that, on its first call, leaves two processes running: one started in a
session of its own (detached_process: fails) and one orphaned by a shell that exits at once
(child_process: reported).  Their pids go to the file named by $LEFT_PIDS."""
import os
import subprocess
import sys

import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha
        self.started = False

    def forward(self, x):
        if not self.started:
            self.started = True
            pids = os.environ["LEFT_PIDS"]
            p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
            with open(pids, "a") as f:
                f.write("%d\n" % p.pid)
            subprocess.run(["sh", "-c", "sleep 600 & echo $! >> %s" % pids], check=True)
        return F.elu(x, alpha=self.alpha)

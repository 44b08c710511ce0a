"""Correct ELU that never returns from its tenth call inside the timing loop."""
import sys
import time

import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha
        self.timed_calls = 0

    def forward(self, x):
        f = sys._getframe(1)
        while f is not None and f.f_code.co_name != "one_call":
            f = f.f_back
        if f is not None:
            self.timed_calls += 1
            if self.timed_calls == 10:
                while True:
                    time.sleep(1)
        return F.elu(x, alpha=self.alpha)

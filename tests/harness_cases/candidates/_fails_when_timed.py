"""A correct ELU that fails on its tenth call inside the harness's timing loop, in the way a
subclass's fail() chooses."""
import sys

import torch.nn as nn
import torch.nn.functional as F


class FailsWhenTimed(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha
        self.timed_calls = 0

    def fail(self):
        raise NotImplementedError

    def forward(self, x):
        f = sys._getframe(1)
        while f is not None and f.f_code.co_name != "one_call":
            f = f.f_back
        if f is not None:
            self.timed_calls += 1
            if self.timed_calls == 10:
                self.fail()
        return F.elu(x, alpha=self.alpha)

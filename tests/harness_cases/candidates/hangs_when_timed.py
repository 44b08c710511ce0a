"""Correct ELU that never returns from its tenth call inside the timing loop."""
import time

from _fails_when_timed import FailsWhenTimed


class ModelNew(FailsWhenTimed):
    def fail(self):
        while True:
            time.sleep(1)

"""Where a judge's reference results wait between the reference trials and judging.

Small ones stay where they were computed (up to ``keep_bytes``), and on the device beyond that
while the judge's share of it has room (its ``holder``); larger ones wait in host memory (up to
``host_bytes``) where computing them took longer than copying them out and back would; the rest
are recomputed from their input set when the candidate's output arrives.
"""

from kernelwright.harness import inputs

# What a reference set costs to wait in host memory instead of being recomputed: copied out to
# freshly allocated (pageable) memory and back when judged. Measured on H100, 2026-11-27:
# 19.3 GB a set, out at about 1.4 GB/s and back at about 3.9 GB/s, so about a second a GB.
HOST_SECONDS_PER_BYTE = 1e-9


def worth_hosting(computed_s, nbytes, on_device):
    """Whether references that took ``computed_s`` to compute (``nbytes``, on the device or
    already in host memory) should wait in host memory rather than be computed again.

    Level-1 68 (H100): 3.7 GB a set, 8 s to compute; hosting took its verification from 112 to
    110 s. Level-1 29: 19.3 GB a set computed in about 0.3 s; hosting took its reference trials
    from 0.5 to 29 s and its judging from 2 to 10 s. Where references were computed in host
    memory, keeping them there costs nothing."""
    return not on_device or computed_s >= nbytes * HOST_SECONDS_PER_BYTE


class ReferenceStore:
    """``holder``: the judge's handles.Holder, whose share of the device (its budget, sized
    from the first set) is the room beyond ``keep_bytes``; what is kept there is reserved in it."""

    def __init__(self, keep_bytes, host_bytes, holder=None):
        self.keep_bytes, self.host_bytes, self.holder = keep_bytes, host_bytes, holder
        self.kept_bytes = self.host_kept_bytes = self.set_bytes = 0
        self.spare_bytes = 0  # of kept_bytes, those kept beyond keep_bytes in the judge's share
        self.expected = {}  # set name -> (eager, float64 reference)
        self.on_host = {}  # set name -> where its float64 reference lived before it moved to the host

    def add(self, name, eager, ref64, computed_s):
        """Keeps set ``name``'s references (computed in ``computed_s``), or lets them go.

        Level-1 68 (H200, 2026-12-02): 3.7 GB a set, eight sets recomputed when judging took
        25 s of its verification; the judge's quarter of the device holds them all."""
        self.set_bytes = inputs.nbytes(eager) + inputs.nbytes(ref64)
        on_device = any(t.device.type != "cpu" for t in inputs.tensors_in((eager, ref64)))
        if self.kept_bytes + self.set_bytes <= self.keep_bytes or (on_device and self.set_bytes <= self._spare()):
            if self.kept_bytes + self.set_bytes > self.keep_bytes:
                self._reserve(self.spare_bytes + self.set_bytes)
            self.expected[name] = (eager, ref64)
            self.kept_bytes += self.set_bytes
        elif (self.host_kept_bytes + self.set_bytes <= self.host_bytes
              and worth_hosting(computed_s, self.set_bytes, on_device)):
            self.on_host[name] = next((t.device for t in inputs.tensors_in(ref64)), None)
            self.expected[name] = (inputs.to_device(eager, "cpu"), inputs.to_device(ref64, "cpu"))
            self.host_kept_bytes += self.set_bytes

    def get(self, name, device):
        """Set ``name``'s (eager, float64) references where they were computed, or None where
        they were let go."""
        if name in self.on_host:
            eager, ref64 = self.expected[name]
            return inputs.to_device(eager, device), inputs.to_device(ref64, self.on_host[name])
        return self.expected.get(name)

    def clear(self):
        self.expected.clear()
        self.on_host.clear()
        self.kept_bytes = self.host_kept_bytes = 0
        self._reserve(0)

    def _spare(self):
        """Device bytes of the holder's budget neither held for the other worker nor kept here."""
        h = self.holder
        return 0 if h is None else max(0, h.budget - h.bytes - h.reserved)

    def _reserve(self, nbytes):
        self.spare_bytes = nbytes
        if self.holder is not None:
            self.holder.reserved = nbytes

    def notes(self, n_sets):
        """What the report says of where the references of ``n_sets`` sets waited."""
        out = []
        if self.on_host:
            out.append("reference results of %d sets kept on the host (%.0f MiB each, beyond %.0f MiB on "
                       "the device)" % (len(self.on_host), self.set_bytes / 2**20, self.keep_bytes / 2**20))
        if len(self.expected) < n_sets:
            out.append("reference results recomputed when judging (%d of %d sets, %.0f MiB each: over "
                       "%.0f MiB and what the device could spare here, and over %.0f MiB on the host or "
                       "quicker to compute than to copy there and back)" % (n_sets - len(self.expected), n_sets, self.set_bytes / 2**20,
                                             self.keep_bytes / 2**20, self.host_bytes / 2**20))
        return out

"""Start, watch and kill worker processes.

Each worker runs in its own session (process group) with its output in a log file.
The parent enforces the time limits and the resident-memory cap, and kills the whole
group, so a hung, runaway or crashed candidate never takes the harness with it.
"""

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time

from kernelwright.harness import proctree
from kernelwright.harness.protocol import PARENT_ENV, Command, Event

LOG_LIMIT_BYTES = 256 << 20

_live = set()
_live_lock = threading.Lock()


def kill_all():
    """Kill every worker still running (used when a suite is interrupted)."""
    with _live_lock:
        workers = list(_live)
    for w in workers:
        w.kill()


def _package_root():
    import kernelwright

    return os.path.dirname(os.path.dirname(os.path.abspath(kernelwright.__file__)))


def _rss_mb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def describe_exit(code):
    if code is None:
        return "still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "signal %d" % -code
        return "killed by %s" % name
    return "exited with status %d" % code


# Events after which the worker waits for the parent's next command.
_WAITING_EVENTS = (Event.READY, Event.PREPARED, Event.BUILT, Event.JUDGED, Event.RECHECKED)
# Events that end the current phase's clock: the worker waits, or is done.
_IDLE_EVENTS = _WAITING_EVENTS + (Event.OUTPUTS, Event.RESULT)


def worker_env(env=None):
    """The environment a worker runs in: ``env`` (or this process's) and what every worker needs."""
    full_env = dict(os.environ if env is None else env)
    full_env["PYTHONPATH"] = os.pathsep.join(
        [_package_root()] + [p for p in full_env.get("PYTHONPATH", "").split(os.pathsep) if p])
    full_env["PYTHONUNBUFFERED"] = "1"
    full_env[PARENT_ENV] = str(os.getpid())
    full_env.setdefault("PYTHONFAULTHANDLER", "1")
    return full_env


class WorkerFailure(Exception):
    """A worker died, hung, ran out of memory or reported an exception."""

    worker = None

    def __init__(self, verdict, reason, log_tail="", phase=None, details=None):
        super().__init__(reason)
        self.verdict = verdict
        self.reason = reason
        self.log_tail = log_tail
        self.phase = phase
        self.details = details or {}


class Worker:
    """One worker process and the pipe it reports on."""

    def __init__(self, name, job, workdir, env=None, memory_limit_mb=None, build_timeout=None, timeout=None):
        """Start worker ``name`` on ``job`` in ``workdir``; with ``job`` None, a spare that
        imports its role and waits for :meth:`take`."""
        self.name = name
        self.memory_limit_mb = memory_limit_mb
        self.build_timeout = build_timeout
        self.timeout = timeout
        self.events = []
        os.makedirs(workdir, exist_ok=True)
        self.log_path = os.path.join(workdir, "%s.log" % name)
        self._log = open(self.log_path, "wb")
        self.env = full_env = worker_env(env)
        rfd, wfd = os.pipe()
        args = ["--spare", name] if job is None else [self._write_job(job, workdir)]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kernelwright.harness.worker"] + args + [str(wfd)],
            stdin=subprocess.PIPE, stdout=self._log, stderr=subprocess.STDOUT,
            pass_fds=(wfd,), start_new_session=True, env=full_env, cwd=workdir,
        )
        os.close(wfd)
        with _live_lock:
            _live.add(self)
        self._rfd = rfd
        self._buf = b""
        self._eof = False
        self.peak_rss_mb = 0.0
        self._left = None
        self._start_clock()

    def _write_job(self, job, workdir):
        path = os.path.join(workdir, "%s.job.json" % self.name)
        with open(path, "w") as f:
            json.dump(job, f)
        return path

    def _start_clock(self):
        self.phase = "start-up"
        self.started = time.monotonic()
        # Seconds each phase took, so a report shows where an evaluation's time went.
        self.phase_s = {}
        self._phase_since = self.started
        self._building = True
        self.set_deadline(self.build_timeout)

    def env_additions(self, env):
        """What a job run in ``env`` needs added to this worker's environment (a spare's)."""
        return {k: v for k, v in worker_env(env).items() if self.env.get(k) != v}

    def take(self, job, workdir):
        """Give a spare its job; its log moves to ``workdir`` and its clocks start now.  Raises
        WorkerFailure where the spare died while it waited."""
        self.check()
        old = self.log_path
        os.makedirs(workdir, exist_ok=True)
        self.log_path = os.path.join(workdir, "%s.log" % self.name)
        self.send("%s %s" % (Command.TAKE, json.dumps({"job": self._write_job(job, workdir), "log": self.log_path})))
        self._start_clock()
        if old != self.log_path:
            self._log.close()
            self._log = open(self.log_path, "ab")
            try:
                os.remove(old)
            except OSError:
                pass

    def reset_phases(self):
        """Count phases afresh: a shared judge reports each candidate's share alone."""
        self._close_phase()
        self.phase_s = {}

    def set_deadline(self, seconds):
        self.deadline = None if seconds is None else time.monotonic() + seconds

    def send(self, line):
        """Send a command; the worker then has ``timeout`` seconds to answer."""
        self.set_deadline(self.timeout)
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def resume(self, line):
        """Send the command that ends a pause: the worker has the time it had left then."""
        self.send(line)
        self.set_deadline(self._left)

    def _read(self, timeout):
        msgs = []
        if self._eof:
            time.sleep(timeout)
            return msgs
        ready, _, _ = select.select([self._rfd], [], [], timeout)
        if not ready:
            return msgs
        chunk = os.read(self._rfd, 1 << 16)
        if not chunk:
            self._eof = True
            return msgs
        self._buf += chunk
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            try:
                msg = json.loads(line.decode(errors="replace"))
            except ValueError:
                continue  # a candidate writing garbage to our pipe gains nothing
            if isinstance(msg, dict):
                msgs.append(msg)
        return msgs

    def log_tail(self, limit=4000):
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                size = f.tell()
                f.seek(max(0, size - limit))
                text = f.read().decode(errors="replace")
        except OSError:
            return ""
        if size > limit:
            text = "..." + text[text.find("\n") + 1:] if "\n" in text else text
        return text

    def fail(self, verdict, reason, details=None):
        self.kill()
        exc = WorkerFailure(verdict, reason, self.log_tail(), self.phase, details)
        exc.worker = self.name
        return exc

    def pump(self, timeout=0.0):
        """Read what the worker said; raise WorkerFailure if it reported an exception."""
        for msg in self._read(timeout):
            if "phase" in msg or msg.get("event") in _IDLE_EVENTS:
                self._close_phase()
            if "phase" in msg:
                self.phase = str(msg["phase"])
                self._phase_since = time.monotonic()
                if self.phase.startswith("import"):
                    self.set_deadline(self.build_timeout)
                elif self._building:
                    # Imports (and the builds they trigger) are done: the evaluation clock starts.
                    self._building = False
                    self.set_deadline(self.timeout)
            event = msg.get("event")
            if event == Event.FAILED:
                raise self._reported_failure(msg)
            if event in _WAITING_EVENTS:
                self._building = False
                self.deadline = None  # idle until the parent sends the next command
            elif event == Event.OUTPUTS:
                # Paused mid-evaluation while the judge works: resume() restores what was left.
                self._left = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
                self.deadline = None
            if event:
                self.events.append(msg)

    def _close_phase(self):
        if self._phase_since is not None:
            spent = time.monotonic() - self._phase_since
            self.phase_s[self.phase] = self.phase_s.get(self.phase, 0.0) + spent
            self._phase_since = None

    def check(self):
        """Raise WorkerFailure if the worker died, overran its deadline or its memory."""
        self.pump(0.0)
        code = self.proc.poll()
        if code is not None:
            # Drain what it said before dying; a report of an exception beats "it died".
            # Bounded: a child that inherited the pipe may keep it open.
            drain_until = time.monotonic() + 1.0
            while not self._eof and time.monotonic() < drain_until:
                self.pump(0.05)
            if any(e.get("event") in (Event.RESULT, Event.BUILT) for e in self.events):
                return
            raise self.fail("crash", "worker %s during %s" % (describe_exit(code), self.phase))
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise self.fail("timeout", "timed out during %s" % self.phase)
        rss = _rss_mb(self.proc.pid)
        self.peak_rss_mb = max(self.peak_rss_mb, rss)
        if self.memory_limit_mb and rss > self.memory_limit_mb:
            raise self.fail("crash", "out of memory: resident memory %.0f MiB exceeded the limit of %d MiB during %s"
                            % (rss, self.memory_limit_mb, self.phase))
        try:
            if os.fstat(self._log.fileno()).st_size > LOG_LIMIT_BYTES:
                raise self.fail("crash", "output flood: log exceeded %d MiB during %s"
                                % (LOG_LIMIT_BYTES >> 20, self.phase))
        except OSError:
            pass

    def _reported_failure(self, msg):
        try:
            self.proc.wait(timeout=2)  # it exits by itself after reporting; let it flush its log
        except subprocess.TimeoutExpired:
            pass
        exc = self.fail(str(msg.get("status", "error")), str(msg.get("message", "unknown error")),
                        {"traceback": msg.get("traceback"), "cause": msg.get("cause")})
        return exc

    def wait_for(self, event, others=()):
        """Block until this worker sends ``event``; watch ``others`` meanwhile."""
        while True:
            for i, msg in enumerate(self.events):
                if msg.get("event") == event:
                    return self.events.pop(i)
            self.pump(0.1)
            self.check()
            for other in others:
                other.check()

    def kill(self):
        # What the worker started in sessions of its own first (it adopts their orphans,
        # see proctree), while it is there to find them by: only while it has not been
        # reaped, so that its pid is not another process's.  A worker that exits kills its
        # tree itself.  Then the whole group: children the worker started (compilers, pools)
        # go with it, even when the worker itself has already exited.
        if self.proc.poll() is None:
            proctree.kill_descendants(self.proc.pid)
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def end(self, timeout):
        """Wait up to ``timeout`` s for a worker that has said all it has to end by itself, then
        kill it: what it held, its device memory above all, is free when this returns."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def close(self):
        self.kill()
        self._close_phase()
        with _live_lock:
            _live.discard(self)
        for f in (self.proc.stdin, self._log):
            try:
                f.close()
            except OSError:
                pass
        try:
            os.close(self._rfd)
        except OSError:
            pass

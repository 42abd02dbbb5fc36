"""Run user code in a subprocess under the compile counters, and never hang or crash on it.

Each run gets a fresh temporary directory.  A script is run as
``PYTHON bootstrap.py SCRIPT`` in the script's own directory; a module of a package as
``PYTHON bootstrap.py -m pkg.mod`` from the package's root; a ``--run`` command as given, with
a ``sitecustomize.py`` put first on PYTHONPATH that instruments every Python process the
command starts (each writes its own report).  The child gets its own session and process
group: at the timeout the whole group gets SIGTERM (the bootstrap then writes what it
measured), and SIGKILL a few seconds later; when the child ends, whatever it left running in
its group or session is SIGKILLed.  With ``max_memory`` the resident memory of the session's
processes is checked ten times a second and the session is SIGKILLed when it goes over.  The
child's stdout and stderr are pipes read by threads that keep only their last
``TAIL_BYTES``: a flood costs neither memory nor disk, and a process that escaped the session
and holds a pipe open cannot block jitlint (reading stops ``DRAIN_SECONDS`` after the end).
See docs/reliability.md.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

BOOTSTRAP = Path(__file__).with_name("bootstrap.py")
GRACE_SECONDS = 3.0
TAIL_CHARS = 2000
TAIL_BYTES = 64 * 1024  # of each output stream, kept in memory; the rest is read and dropped
POLL_SECONDS = 0.1  # how often the memory of a run with max_memory is measured
DRAIN_SECONDS = 1.0  # reading output after the run ended (a leftover may hold the pipe open)

SITECUSTOMIZE = '''\
"""Written by `jitlint --confirm --run`: counts JAX compiles in this process."""
import os
import sys


def _jitlint_chain():
    """Run the sitecustomize this file shadows, as Python would have."""
    import importlib.machinery
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


try:
    import _jitlint_bootstrap
    _jitlint_bootstrap.autostart()
except Exception as exc:
    sys.stderr.write("jitlint: could not instrument this process: %r\\n" % (exc,))
try:
    _jitlint_chain()
except Exception:
    import traceback
    traceback.print_exc()
'''


@dataclass
class RunResult:
    label: str  # what was run, for messages
    cwd: str
    returncode: Optional[int] = None
    timed_out: bool = False
    start_error: Optional[str] = None  # the command could not be started at all
    seconds: float = 0.0
    stderr_tail: str = ""
    stdout_tail: str = ""
    output_bytes: int = 0  # stdout + stderr, all of it (only the tails are kept)
    max_memory: Optional[int] = None  # bytes; the limit it ran under
    memory_used: Optional[int] = None  # bytes; set when it went over max_memory and was killed
    reports: list[dict] = field(default_factory=list)
    explained: bool = False  # its error is the one a finding predicted

    def failure(self, timeout: float) -> Optional[str]:
        """Why the run failed, in one line; None when it ran to the end."""
        if self.start_error is not None:
            return f"could not start `{self.label}`: {self.start_error}"
        if self.memory_used is not None and self.max_memory is not None:
            return (f"used {megabytes(self.memory_used)} of memory, over --max-memory "
                    f"{megabytes(self.max_memory)}, and was killed")
        if self.timed_out:
            return f"timed out after {timeout:g} s and was killed"
        if self.returncode is not None and self.returncode < 0:
            return (f"killed by {signal_name(-self.returncode)}; "
                    f"{last_line(self.stderr_tail)}").rstrip("; ")
        if not self.reports:
            return (f"`{self.label}` exited with code {self.returncode} before any instrumented "
                    f"Python process wrote its report (os._exit or a hard crash skips it); "
                    f"{last_line(self.stderr_tail)}").rstrip("; ")
        if self.returncode not in (0, None):
            return f"exit code {self.returncode}; {self.error_line()}".rstrip("; ")
        return None

    def error_line(self) -> str:
        """``Type: message`` of the error that ended the run: its own first line, not the
        boilerplate JAX adds to a filtered traceback nor a URL after it."""
        from jitlint.runtime.attribution import exception_line, first_line

        for report in self.reports:
            outcome = report.get("outcome") or {}
            if outcome.get("status") == "raised" and outcome.get("type"):
                line = first_line(outcome.get("message") or "")
                return f"{outcome['type']}: {line}" if line else str(outcome["type"])
        return exception_line(self.stderr_tail)


def megabytes(size: int) -> str:
    return f"{size / 2**20:.0f} MiB"


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def run_script(python: str, target: Sequence[str], cwd: str, env: dict, timeout: float,
               lines_file: Optional[str], label: str, max_memory: Optional[int] = None) -> RunResult:
    """``target``: ``[SCRIPT]`` or ``["-m", MODULE]``."""
    with tempfile.TemporaryDirectory(prefix="jitlint-confirm-") as tmp:
        out = os.path.join(tmp, "report.json")
        child_env = dict(env, JITLINT_RUNTIME_OUT=out)
        if lines_file:
            child_env["JITLINT_LINES"] = lines_file
        result = _run([python, str(BOOTSTRAP), *target], cwd, child_env, timeout, label,
                      max_memory)
        result.reports = _load([out])
        return result


def run_command(argv: Sequence[str], cwd: str, env: dict, timeout: float,
                lines_file: Optional[str], label: str, max_memory: Optional[int] = None) -> RunResult:
    with tempfile.TemporaryDirectory(prefix="jitlint-confirm-") as tmp:
        hook = os.path.join(tmp, "hook")
        reports = os.path.join(tmp, "reports")
        os.mkdir(hook)
        os.mkdir(reports)
        shutil.copyfile(BOOTSTRAP, os.path.join(hook, "_jitlint_bootstrap.py"))
        Path(hook, "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        python_path = env.get("PYTHONPATH")
        child_env = dict(env, JITLINT_RUNTIME_DIR=reports,
                         PYTHONPATH=hook + (os.pathsep + python_path if python_path else ""))
        if lines_file:
            child_env["JITLINT_LINES"] = lines_file
        result = _run(list(argv), cwd, child_env, timeout, label, max_memory)
        result.reports = _load(sorted(str(p) for p in Path(reports).glob("report-*.json")))
        return result


def _load(paths: Sequence[str]) -> list[dict]:
    reports = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                reports.append(json.load(handle))
        except (OSError, ValueError):
            continue
    return reports


def _run(argv: list[str], cwd: str, env: dict, timeout: float, label: str,
         max_memory: Optional[int] = None) -> RunResult:
    result = RunResult(label, cwd, max_memory=max_memory)
    start = time.monotonic()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
    except OSError as exc:
        result.start_error = exc.strerror or str(exc)
        return result
    assert proc.stdout is not None and proc.stderr is not None
    stdout, stderr = _Capture(proc.stdout), _Capture(proc.stderr)
    try:
        result.returncode = _wait(proc, start + timeout, max_memory, result)
        if result.returncode is None:
            if result.memory_used is None:
                result.timed_out = True
                _kill_group(proc)
            result.returncode = proc.returncode
    except BaseException:  # Ctrl-C in jitlint: take the child down with us
        _kill_group(proc, grace=0)
        raise
    finally:
        _kill_group(proc, grace=0, only_leftovers=True)
        for capture in (stdout, stderr):
            capture.finish()
    result.seconds = time.monotonic() - start
    result.stderr_tail, result.stdout_tail = stderr.tail(), stdout.tail()
    result.output_bytes = stdout.total + stderr.total
    return result


def _wait(proc: subprocess.Popen, deadline: float, max_memory: Optional[int],
          result: RunResult) -> Optional[int]:
    """The exit code; None when the deadline passed or the memory limit was hit (the latter
    sets ``result.memory_used`` and kills the session)."""
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        try:
            return proc.wait(timeout=remaining if max_memory is None else min(remaining, POLL_SECONDS))
        except subprocess.TimeoutExpired:
            if max_memory is None:
                return None
        used = session_memory(proc.pid)
        if used > max_memory:
            result.memory_used = used
            _kill_group(proc, grace=0, only_leftovers=True)  # no grace: it is still growing
            return None


class _Capture:
    """Reads one of the child's output pipes in a thread, keeping its last ``TAIL_BYTES``."""

    def __init__(self, pipe) -> None:
        self.fd = pipe.fileno()
        self.pipe = pipe
        self.data = bytearray()
        self.total = 0
        self.until: Optional[float] = None  # set when the run is over
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while self.until is None or time.monotonic() < self.until:
            if sys.platform != "win32":
                ready, _, _ = select.select([self.fd], [], [], POLL_SECONDS)
                if not ready:
                    continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.total += len(chunk)
            self.data += chunk
            if len(self.data) > 2 * TAIL_BYTES:
                del self.data[:-TAIL_BYTES]

    def finish(self) -> None:
        self.until = time.monotonic() + DRAIN_SECONDS
        self.thread.join(DRAIN_SECONDS + 1.0)
        if not self.thread.is_alive():
            self.pipe.close()  # else a blocked read (Windows) keeps it; the thread is a daemon

    def tail(self, chars: int = TAIL_CHARS) -> str:
        text = bytes(self.data[-4 * chars:]).decode("utf-8", "replace")
        return text[-chars:]


def session_memory(session: int) -> int:
    """Resident memory, in bytes, of the processes of a session (Linux; 0 elsewhere)."""
    total = 0
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
    for pid in _session_members(session):
        try:
            with open(f"/proc/{pid}/statm", "rb") as handle:
                total += int(handle.read().split()[1]) * page
        except (OSError, ValueError, IndexError):
            continue  # it ended meanwhile
    return total


def _session_members(session: int) -> list[int]:
    """The processes of a session, from /proc (Linux); [] where there is no /proc."""
    members = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return members
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            if int(fields[3]) == session and fields[0] not in (b"Z", b"X"):
                members.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return members


def _kill_group(proc: subprocess.Popen, grace: float = GRACE_SECONDS, only_leftovers: bool = False) -> None:
    """SIGTERM the child's whole process group, then SIGKILL what is left."""
    if sys.platform == "win32":  # pragma: no cover - no process groups
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        return
    signals = [signal.SIGKILL] if only_leftovers else [signal.SIGTERM, signal.SIGKILL]
    for sig in signals:
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            break
        if sig == signal.SIGTERM:
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                continue
            # The leader is gone; kill any member that ignored SIGTERM.
            continue
    # Members that moved to a process group of their own but stayed in the session.
    for pid in _session_members(proc.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        proc.wait(timeout=max(grace, 1.0))
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
        pass


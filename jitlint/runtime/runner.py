"""Run user code in a subprocess under the compile counters, and never hang or crash on it.

Each run gets a fresh temporary directory.  A script is run as
``PYTHON bootstrap.py SCRIPT`` in the script's own directory; a module of a package as
``PYTHON bootstrap.py -m pkg.mod`` from the package's root; a ``--run`` command as given, with
a ``sitecustomize.py`` put first on PYTHONPATH that instruments every Python process the
command starts (each writes its own report).  The child gets its own process group: at the
timeout the whole group gets SIGTERM (the bootstrap then writes what it measured), and
SIGKILL a few seconds later.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

BOOTSTRAP = Path(__file__).with_name("bootstrap.py")
GRACE_SECONDS = 3.0
TAIL_CHARS = 2000

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
    reports: list[dict] = field(default_factory=list)
    explained: bool = False  # its error is the one a finding predicted

    def failure(self, timeout: float) -> Optional[str]:
        """Why the run failed, in one line; None when it ran to the end."""
        if self.start_error is not None:
            return f"could not start `{self.label}`: {self.start_error}"
        if self.timed_out:
            return f"timed out after {timeout:g} s and was killed"
        if not self.reports:
            return (f"`{self.label}` exited with code {self.returncode} and no instrumented "
                    f"Python process reported; {last_line(self.stderr_tail)}").rstrip("; ")
        if self.returncode not in (0, None):
            return f"exit code {self.returncode}; {last_line(self.stderr_tail)}".rstrip("; ")
        return None


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def run_script(python: str, target: Sequence[str], cwd: str, env: dict, timeout: float,
               lines_file: Optional[str], label: str) -> RunResult:
    """``target``: ``[SCRIPT]`` or ``["-m", MODULE]``."""
    with tempfile.TemporaryDirectory(prefix="jitlint-confirm-") as tmp:
        out = os.path.join(tmp, "report.json")
        child_env = dict(env, JITLINT_RUNTIME_OUT=out)
        if lines_file:
            child_env["JITLINT_LINES"] = lines_file
        result = _run([python, str(BOOTSTRAP), *target], cwd, child_env, timeout, tmp, label)
        result.reports = _load([out])
        return result


def run_command(argv: Sequence[str], cwd: str, env: dict, timeout: float,
                lines_file: Optional[str], label: str) -> RunResult:
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
        result = _run(list(argv), cwd, child_env, timeout, tmp, label)
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


def _run(argv: list[str], cwd: str, env: dict, timeout: float, tmp: str, label: str) -> RunResult:
    result = RunResult(label, cwd)
    stdout_path, stderr_path = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
    start = time.monotonic()
    with open(stdout_path, "wb") as stdout, open(stderr_path, "wb") as stderr:
        try:
            # Files, not pipes: a grandchild that outlives the kill cannot block us on a pipe.
            proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                    stdout=stdout, stderr=stderr, start_new_session=True)
        except OSError as exc:
            result.start_error = exc.strerror or str(exc)
            return result
        try:
            result.returncode = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            result.timed_out = True
            _kill_group(proc)
        except BaseException:  # Ctrl-C in jitlint: take the child down with us
            _kill_group(proc, grace=0)
            raise
        finally:
            if not result.timed_out:
                _kill_group(proc, grace=0, only_leftovers=True)
    result.seconds = time.monotonic() - start
    result.stderr_tail = _tail(stderr_path)
    return result


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
    try:
        proc.wait(timeout=max(grace, 1.0))
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
        pass


def _tail(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - TAIL_CHARS))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""

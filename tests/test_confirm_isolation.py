"""--confirm isolation: whatever a run does, jitlint reports it and carries on.

The runner tests run plain Python commands (``run_command``: no JAX imported, fast); the last
test runs hostile scripts through the real CLI, next to a well-behaved one, with real JAX.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import FIXTURES, alive
from jitlint.runtime.runner import TAIL_BYTES, TAIL_CHARS, run_command

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="process sessions and /proc")
ENV = {"PATH": "/usr/bin:/bin"}
HOSTILE = FIXTURES / "confirm" / "hostile"
# Timeouts count from the launch. A run that ends by itself gets RUN_TIMEOUT: ample on any
# machine, and never waited for. A run that must be killed costs its timeout in wall time: the
# interpreter starts (and the bootstrap installs its SIGTERM handler) in well under a second,
# even on a loaded machine, so HANG_TIMEOUT gives it ten times that.
RUN_TIMEOUT = 120
HANG_TIMEOUT = 5
# Through the CLI every run shares --timeout: the well-behaved scripts import JAX and compile
# within it (13 s measured on a 2-core machine at load 8), the waiting one is killed at it.
CLI_TIMEOUT = 60


def _script(tmp_path: Path, source: str) -> str:
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(source))
    return str(path)


def _run(tmp_path: Path, source: str, timeout: float = RUN_TIMEOUT, max_memory=None):
    return run_command([sys.executable, _script(tmp_path, source)], str(tmp_path), ENV, timeout,
                       None, "python script.py", max_memory)


def test_an_infinite_loop_is_killed_at_the_timeout(tmp_path):
    result = _run(tmp_path, "while True:\n    pass\n", timeout=HANG_TIMEOUT)
    assert result.timed_out
    assert result.failure(HANG_TIMEOUT) == f"timed out after {HANG_TIMEOUT} s and was killed"
    # SIGTERM reached the instrumented process, which still wrote its report.
    [report] = result.reports
    assert report["outcome"]["type"] == "timeout"


@pytest.mark.parametrize("own_group", [False, True], ids=["same-group", "own-group"])
def test_a_grandchild_that_outlives_the_run_is_killed(tmp_path, own_group):
    pid_file = tmp_path / "pid"
    result = _run(tmp_path, f"""\
        import os, subprocess, sys
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                                 preexec_fn=os.setpgrp if {own_group} else None)
        open({str(pid_file)!r}, "w").write(str(child.pid))
        print("started", child.pid)  # and exit at once, leaving it running
    """)
    assert result.returncode == 0 and result.failure(RUN_TIMEOUT) is None, result.stderr_tail
    assert "started" in result.stdout_tail
    assert not alive(int(pid_file.read_text()))


def test_an_escaped_daemon_holding_the_output_pipe_does_not_block(tmp_path):
    # A new session is out of jitlint's reach (only a cgroup would hold it); it keeps the
    # output pipe open, yet the run ends as soon as the script does.
    pid_file = tmp_path / "pid"
    result = _run(tmp_path, f"""\
        import subprocess, sys
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                                 start_new_session=True)
        open({str(pid_file)!r}, "w").write(str(child.pid))
    """)
    pid = int(pid_file.read_text())
    try:
        assert result.returncode == 0 and result.failure(RUN_TIMEOUT) is None
        assert result.seconds < RUN_TIMEOUT / 2  # not the daemon's 600 s, nor the timeout
    finally:
        os.kill(pid, signal.SIGKILL)


def test_os_exit_without_a_report_is_a_clear_failure(tmp_path):
    result = _run(tmp_path, "import os, sys\nsys.stderr.write('bailing out\\n')\nos._exit(3)\n")
    assert result.returncode == 3 and result.reports == []
    failure = result.failure(RUN_TIMEOUT)
    assert "exited with code 3 before any instrumented Python process wrote its report" in failure
    assert "os._exit" in failure and failure.endswith("bailing out")


def test_a_crash_by_signal_is_named(tmp_path):
    result = _run(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    assert result.returncode == -signal.SIGSEGV
    assert result.failure(RUN_TIMEOUT).startswith("killed by SIGSEGV")


def test_a_stdout_flood_is_read_to_the_end_and_only_its_tail_kept(tmp_path):
    size = 64 * 2**20
    result = _run(tmp_path, f"""\
        import sys
        chunk = "x" * 65535 + "\\n"
        for _ in range({size // 65536}):
            sys.stdout.write(chunk)
        sys.stdout.write("last line\\n")
        sys.stderr.write("done\\n")
    """)
    assert result.returncode == 0 and result.failure(RUN_TIMEOUT) is None
    assert result.output_bytes == size + len("last line\n") + len("done\n")
    assert len(result.stdout_tail) == TAIL_CHARS and result.stdout_tail.endswith("last line\n")
    assert result.stderr_tail == "done\n"


def test_an_endless_flood_is_killed_at_the_timeout(tmp_path):
    result = _run(tmp_path, "import sys\nwhile True:\n    sys.stdout.write('y' * 65536)\n",
                  timeout=HANG_TIMEOUT)
    assert result.timed_out and result.output_bytes > 10 * TAIL_BYTES
    assert len(result.stdout_tail) <= TAIL_CHARS


def test_unbounded_allocation_is_killed_at_the_memory_limit(tmp_path):
    limit = 300 * 2**20
    result = _run(tmp_path, """\
        hoard = []
        while True:
            hoard.append(b"x" * 10_000_000)
    """, max_memory=limit)
    assert result.memory_used is not None and result.memory_used > limit
    assert not result.timed_out and result.returncode == -signal.SIGKILL
    failure = result.failure(RUN_TIMEOUT)
    assert failure.startswith("used ") and "over --max-memory 300 MiB, and was killed" in failure


def test_memory_is_summed_over_the_session(tmp_path):
    # Two processes of 150 MB each: over a 250 MB limit together, under it alone.
    result = _run(tmp_path, """\
        import subprocess, sys, time
        code = "data = b'x' * 150_000_000; import time; time.sleep(600)"
        child = subprocess.Popen([sys.executable, "-c", code])
        data = b"x" * 150_000_000
        time.sleep(600)
    """, max_memory=250 * 2**20)
    assert result.memory_used is not None and not result.timed_out


def test_a_run_within_the_memory_limit_is_untouched(tmp_path):
    result = _run(tmp_path, "data = b'x' * 10_000_000\nprint(len(data))\n",
                  max_memory=500 * 2**20)
    assert result.returncode == 0 and result.memory_used is None
    assert result.failure(RUN_TIMEOUT) is None and result.stdout_tail == "10000000\n"


# ---------------------------------------------------------------------------- through the CLI
def test_hostile_scripts_are_reported_and_the_others_still_confirmed(tmp_path):
    pytest.importorskip("jax")
    pid_file = tmp_path / "logger.pid"
    scripts = sorted(HOSTILE.glob("*.py"))
    env = dict(os.environ, JAX_PLATFORMS="cpu", LOGGER_PID_FILE=str(pid_file))
    proc = subprocess.run([sys.executable, "-m", "jitlint", "check", "--confirm", "--no-cache",
                           "--timeout", str(CLI_TIMEOUT), "--max-memory", "1G", "-j", "2",
                           "--output-format", "json", *map(str, scripts)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 1, proc.stderr  # findings: the documented exit code
    verdicts = {Path(row["path"]).name: row["runtime"] for row in json.loads(proc.stdout)}
    assert set(verdicts) == {p.name for p in scripts}

    def failed(name: str) -> str:
        runtime = verdicts[name]
        assert runtime["verdict"] == "run failed", runtime
        return runtime["detail"]

    assert f"timed out after {CLI_TIMEOUT} s" in failed("spins_waiting_for_a_lock.py")
    assert "over --max-memory 1024 MiB" in failed("caches_every_batch.py")
    assert "exited with code 3 before any instrumented" in failed("exits_from_a_worker.py")
    for name in ("prints_every_step.py", "forks_a_background_logger.py"):
        assert (verdicts[name]["verdict"], verdicts[name]["compiles"]) == ("confirmed", 5), name
    assert not alive(int(pid_file.read_text()))  # the forked logger went with its run
    for name in ("spins_waiting_for_a_lock.py", "caches_every_batch.py", "exits_from_a_worker.py"):
        assert f"{name}` (in " in proc.stderr and "failed:" in proc.stderr


@pytest.mark.parametrize("args, message", [
    (["--confirm", "--max-memory", "lots"], "--max-memory: 'lots' is not a size such as 4G or 512M"),
    (["--confirm", "--max-memory", "0"], "--max-memory: it must be positive"),
    (["--max-memory", "1G"], "need --confirm"),
])
def test_bad_max_memory_is_a_usage_error(tmp_path, run_cli, args, message):
    (tmp_path / "a.py").write_text("x = 1\n")
    code, _, err = run_cli(*args, str(tmp_path / "a.py"))
    assert code == 2 and message in err


def test_sizes():
    from jitlint.runtime.command import parse_size

    assert [parse_size(s) for s in ("4G", "512M", "1.5GiB", "300", "64kb")] == \
        [4 * 2**30, 512 * 2**20, 3 * 2**29, 300 * 2**20, 64 * 2**10]

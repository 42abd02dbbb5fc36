"""``jitlint --confirm``: every verdict on real runs of real JAX (CPU), through the real CLI.

One CLI run covers fixtures/confirm/verdicts (+ the runtime-only scenario); the hanging
script and the --run entry point get their own runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import FIXTURES, actual_findings, alive, expected_findings

CONFIRM = FIXTURES / "confirm"
# A hanging run is killed at --timeout, counted from its launch. The hang fixture signals that
# it runs (its server's pid file) before it imports JAX, a fraction of a second after the
# launch even on a loaded machine: 15 s is ample headroom, and the test's only wait.
HANG_TIMEOUT = 15


def jitlint(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jitlint", *args], cwd=cwd, capture_output=True,
                          text=True, env=dict(os.environ, JAX_PLATFORMS="cpu", **(env or {})),
                          timeout=600)


def by_site(stdout: str) -> dict[tuple[str, int, str], dict]:
    return {(Path(row["path"]).name, row["line"], row["code"]): row for row in json.loads(stdout)}


def marked_line(path: Path, code: str) -> int:
    [(line, _)] = [m for m in expected_findings(path) if m[1] == code]
    return line


@pytest.fixture(scope="module")
def verdicts() -> dict[tuple[str, int, str], dict]:
    pytest.importorskip("jax")
    # unreached_sweep.py's finding is in the opt-in group (nothing calls the sweep)
    proc = jitlint("check", "--confirm", "--output-format", "json", "-j", "2",
                   "--extend-select", "unknown-callers",
                   str(CONFIRM / "verdicts"), str(CONFIRM / "runtime_only" / "ragged_batches.py"))
    assert proc.returncode == 1, proc.stderr
    return by_site(proc.stdout)


def runtime_of(verdicts, name: str, code: str) -> dict:
    line = marked_line(CONFIRM / "verdicts" / name, code)
    return verdicts[(name, line, code)]["runtime"]


def test_every_static_finding_gets_a_verdict(verdicts):
    static = {(Path(d.path).name, d.line, d.code) for r in actual_findings([CONFIRM / "verdicts"])
              for d in r.diagnostics}
    assert static and static <= set(verdicts)
    for key in static:
        assert set(verdicts[key]["runtime"]) >= {"verdict", "compiles", "calls", "reason", "detail"}


def test_lambda_in_loop_is_confirmed_with_its_count(verdicts):
    runtime = runtime_of(verdicts, "lambda_in_loop.py", "JIT101")
    assert runtime["verdict"] == "confirmed"
    assert (runtime["compiles"], runtime["calls"]) == (5, 5)
    assert runtime["detail"] == "compiled 5 times in 5 calls"
    assert "re-defined repeatedly" in runtime["reason"]


@pytest.mark.parametrize("name", ["nested_jit_decorator.py", "factory_called_in_loop.py"])
def test_compiles_away_from_the_finding_line_are_attributed(verdicts, name):
    # @jax.jit on a nested def compiles where it is called; a factory's jit where its result
    # is called: linked through JAX's "defined at" (the decorator / the nested def).
    runtime = runtime_of(verdicts, name, "JIT102")
    assert runtime["verdict"] == "confirmed"
    assert (runtime["compiles"], runtime["calls"]) == (5, 5)


def test_a_finding_whose_code_runs_once_is_not_reproduced(verdicts):
    runtime = runtime_of(verdicts, "debug_only_second_call.py", "JIT101")
    assert runtime["verdict"] == "not reproduced"
    assert (runtime["compiles"], runtime["calls"]) == (1, 1)


def test_unhashable_static_argument_raises_as_predicted(verdicts):
    runtime = runtime_of(verdicts, "unhashable_static_arg.py", "JIT301")
    assert runtime["verdict"] == "raised ValueError"
    assert runtime["detail"].startswith("Non-hashable static arguments are not supported")


def test_code_that_never_runs_is_not_reached(verdicts):
    runtime = runtime_of(verdicts, "unreached_sweep.py", "JIT101")
    assert runtime["verdict"] == "not reached"
    assert (runtime["compiles"], runtime["calls"]) == (0, 0)


def test_a_crashing_script_is_reported_with_its_stderr(verdicts):
    runtime = runtime_of(verdicts, "crash_before_loop.py", "JIT101")
    assert runtime["verdict"] == "run failed"
    assert "exit code 1" in runtime["detail"] and "FileNotFoundError" in runtime["detail"]
    assert "train_data_that_does_not_exist.npy" in runtime["stderr"]


def test_a_recompilation_no_rule_predicted_is_a_runtime_only_jit900(verdicts):
    path = CONFIRM / "runtime_only" / "ragged_batches.py"
    [result] = actual_findings([path])
    assert result.diagnostics == []  # the static rules cannot see it
    jit900 = [row for key, row in verdicts.items() if key[2] == "JIT900"]
    assert len(jit900) == 1
    [row] = jit900
    call_line = next(n for n, text in enumerate(path.read_text().splitlines(), 1)
                     if "w = step(w, batch)" in text)
    assert (Path(row["path"]).name, row["line"]) == ("ragged_batches.py", call_line)
    assert "jit(step) (defined at line 8) compiled twice" in row["message"]
    runtime = row["runtime"]
    assert (runtime["verdict"], runtime["compiles"]) == ("confirmed", 2)
    assert "now f32[3] and before f32[4]" in runtime["reason"]


def test_a_hanging_script_is_killed_with_its_process_group(tmp_path):
    pytest.importorskip("jax")
    pid_file = tmp_path / "server.pid"
    script = CONFIRM / "hang" / "waits_for_data_server.py"
    proc = jitlint("check", "--confirm", "--timeout", str(HANG_TIMEOUT), "--output-format", "json",
                   str(script), env={"DATA_SERVER_PID_FILE": str(pid_file)})
    assert proc.returncode == 1, proc.stderr
    [row] = json.loads(proc.stdout)
    assert row["runtime"]["verdict"] == "run failed"
    assert f"timed out after {HANG_TIMEOUT} s" in row["runtime"]["detail"]
    assert "timed out" in proc.stderr
    assert pid_file.exists(), f"the script had not started its server within {HANG_TIMEOUT} s"
    assert not alive(int(pid_file.read_text()))  # the script's own child was killed too


def test_run_entry_point_confirms_findings_in_an_imported_module():
    pytest.importorskip("jax")
    entry = CONFIRM / "run_entry"
    proc = jitlint("check", "--confirm", "--output-format", "json", "--run",
                   f"python {entry / 'train.py'} 4", str(entry))
    assert proc.returncode == 1, proc.stderr
    line = marked_line(entry / "stepper.py", "JIT101")
    runtime = by_site(proc.stdout)[("stepper.py", line, "JIT101")]["runtime"]
    assert runtime["verdict"] == "confirmed"
    assert (runtime["compiles"], runtime["calls"]) == (4, 4)


def test_library_module_without_run_is_not_run():
    # stepper.py has no top-level code and train.py no finding: nothing is executed.
    proc = jitlint("check", "--confirm", "--output-format", "json", str(CONFIRM / "run_entry"))
    [row] = json.loads(proc.stdout)
    assert row["runtime"]["verdict"] == "not run"
    assert "--run" in row["runtime"]["detail"]


def test_nothing_runs_without_confirm(tmp_path):
    marker = tmp_path / "executed"
    script = tmp_path / "script.py"
    script.write_text(f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n"
                      "import jax\nfor _ in range(3):\n    jax.jit(lambda v: v)(1.0)\n")
    proc = jitlint("check", str(script))
    assert proc.returncode == 1 and "JIT101" in proc.stdout
    assert not marker.exists()


def test_parent_side_never_imports_jax():
    code = ("import sys, jitlint.cli, jitlint.runtime.confirm, jitlint.runtime.pytest_plugin, "
            "jitlint.runtime.counting; assert 'jax' not in sys.modules, 'jax imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_help_says_confirm_executes_code():
    proc = jitlint("check", "--help")
    assert "EXECUTES YOUR CODE" in " ".join(proc.stdout.split())
    assert "--confirm" in jitlint("--help").stdout


def test_rule_jit900_is_documented():
    proc = jitlint("rule", "JIT900")
    assert proc.returncode == 0
    assert "# JIT900 runtime-recompilation" in proc.stdout and "--confirm" in proc.stdout


def test_run_without_confirm_is_a_usage_error():
    proc = jitlint("check", "--run", "python x.py", str(CONFIRM / "run_entry"))
    assert proc.returncode == 2 and "need --confirm" in proc.stderr


def test_command_after_dashes():
    from jitlint.runtime.command import split_command

    assert split_command(["check", "--confirm", "src", "--", "python", "-m", "pytest", "-x"]) == \
        (["check", "--confirm", "src"], ["python", "-m", "pytest", "-x"])
    assert split_command(["check", "--", "-odd-name.py"]) == (["check", "--", "-odd-name.py"], None)

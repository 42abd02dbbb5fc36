"""Issue 17: jitlint behaves as ruff users expect and never loses a run to one file.
Everything through the real CLI (``jitlint.cli.main``, or the console script in a process)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import ROOT

LOOP = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.ones(3)
    for step in range(5):
        x = jax.jit(lambda v: v * 2.0)(x)
""")
STEPS = textwrap.dedent("""\
    from functools import partial

    import jax


    @partial(jax.jit, static_argnums=1)
    def step(x, cfg):
        return x
""")
USE = "from pkg.steps import step\n\nstep(1.0, [1, 2])\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# ---------------------------------------------------------------------------- item 1
def topics_like(keys: int = 3, parts: int = 1500) -> str:
    """A valid generated module like CPython's pydoc_data/topics.py: a dict whose values are
    long implicitly concatenated strings (libcst nests them one level per part)."""
    lines = ["topics = {"]
    for k in range(keys):
        body = "\n".join(f"             'line {i} of topic {k}\\n'" for i in range(parts))
        lines.append(f"    'topic{k}': {body.lstrip()},")
    return "\n".join(lines) + "\n}\n"


def test_a_deeply_nested_generated_module_imported_by_a_jax_module(tmp_path, run_cli):
    write(tmp_path / "pkg" / "__init__.py", "")
    write(tmp_path / "pkg" / "topics.py", topics_like())
    write(tmp_path / "pkg" / "train.py", "from pkg.topics import topics\nfrom pkg import topics as t\n" + LOOP)
    for extra in ([], ["--no-prefilter"], ["-j", "2"]):
        code, out, err = run_cli("--no-cache", *extra, str(tmp_path))
        assert code == 1, err
        assert "Traceback" not in err and "RecursionError" not in err
        assert "train.py:8:9: JIT101" in out and "JIT000" not in out  # topics.py is analysed


def test_a_worker_that_dies_costs_only_its_own_file(tmp_path, monkeypatch, run_cli):
    """A file that kills the process linting it (a crash in C, the OOM killer) is an internal
    error for that file; the 40 others in the same run are linted."""
    from jitlint.rules import ALL_RULES

    def dies(self, ctx):
        if ctx.path.endswith("killer.py"):
            os._exit(9)
        return iter(())

    monkeypatch.setattr(ALL_RULES["JIT102"], "check", dies)
    # The workers must inherit the patch: fork (the engine would use forkserver once another
    # test has imported JAX; the workers here run no JAX).
    import multiprocessing

    import jitlint.engine

    monkeypatch.setattr(jitlint.engine, "_process_context", lambda: multiprocessing.get_context("fork"))
    for i in range(40):
        write(tmp_path / f"m{i:02}.py", LOOP)
    write(tmp_path / "killer.py", LOOP)
    code, out, err = run_cli("--no-cache", "-j", "2", str(tmp_path))
    assert code == 2
    assert f"internal error on {tmp_path / 'killer.py'}: the process linting it died" in err
    assert out.count(": JIT101") == 40 and "Traceback" not in err


def test_an_unexpected_error_outside_any_file_is_exit_2_with_a_report(tmp_path, run_cli, monkeypatch):
    import jitlint.cli

    def broken(*args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(jitlint.cli, "lint_files", broken)
    write(tmp_path / "a.py", LOOP)
    code, out, err = run_cli("--no-cache", str(tmp_path))
    assert code == 2
    assert err.startswith("jitlint: internal error: ValueError: boom\nThis is a bug in jitlint")


# ---------------------------------------------------------------------------- item 2
@pytest.mark.parametrize("args, message", [
    (["--select", "JIT310"], "unknown rule code 'JIT310'"),
    (["--ignore", "JIT310"], "unknown rule code 'JIT310'"),
    (["--extend-select", "JIT99"], "unknown rule code 'JIT99'"),
    (["--select", ""], "--select needs at least one code"),
    (["--timeout", "5"], "--timeout given without --confirm: these options need --confirm"),
    (["--platform", "gpu"], "--platform given without --confirm: these options need --confirm"),
    (["--python", sys.executable], "--python given without --confirm: these options need --confirm"),
])
def test_options_that_would_do_nothing_are_refused(tmp_path, run_cli, args, message):
    write(tmp_path / "a.py", LOOP)
    code, out, err = run_cli("--no-cache", *args, str(tmp_path))
    assert code == 2 and message in err and out == ""


@pytest.mark.parametrize("table, message", [
    ('[tool.jitlint]\nignore = ["JIT310"]\n', "unknown rule code 'JIT310'"),
    ('[tool.jitlint]\nextend-ignore = ["JIT199"]\n', "unknown rule code 'JIT199'"),
    ('[tool.jitlint]\nper-file-ignores = { "t/*" = ["JIT310"] }\n', "unknown rule code 'JIT310'"),
    ('[tool.ruff]\nline-length = 100\n', "no [tool.jitlint] table"),
    ('[tool.jitlint]\nrespect-gitignore = "yes"\n', "respect-gitignore must be true or false"),
])
def test_config_with_codes_that_select_nothing_is_refused(tmp_path, run_cli, table, message):
    write(tmp_path / "a.py", LOOP)
    config = write(tmp_path / "x.toml", table)
    code, out, err = run_cli("--no-cache", "--config", str(config), str(tmp_path))
    assert code == 2 and message in err


def test_unknown_codes_in_noqa_are_reported(tmp_path, run_cli):
    f = write(tmp_path / "a.py", LOOP.replace("(x)\n", "(x)  # noqa: JIT190, E501\n"))
    code, out, err = run_cli("--no-cache", str(f))
    assert code == 1 and ":6:9: JIT101" in out  # a typo suppresses nothing
    assert f"jitlint: warning: {f}:6: unknown rule code JIT190 in `# noqa`" in err
    assert "E501" not in err  # another tool's code


@pytest.mark.parametrize("fmt", ["json", "json-lines", "sarif", "github"])
def test_statistics_never_mix_into_machine_readable_stdout(tmp_path, fmt):
    write(tmp_path / "a.py", LOOP)
    proc = subprocess.run([sys.executable, "-m", "jitlint", "check", "--no-cache", "--statistics",
                           "--output-format", fmt, str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "1\tJIT101\tjit-of-lambda" in proc.stderr and "JIT101\tjit" not in proc.stdout
    if fmt in ("json", "sarif"):
        json.loads(proc.stdout)
    elif fmt == "json-lines":
        [json.loads(line) for line in proc.stdout.splitlines()]


def git_repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_gitignore_is_respected_by_default(tmp_path, run_cli):
    repo = git_repo(tmp_path)
    write(repo / ".gitignore", "scratch/\nold_*.py\n")
    write(repo / "scratch" / "a.py", LOOP)
    write(repo / "old_b.py", LOOP)
    write(repo / "kept.py", LOOP)
    code, out, _ = run_cli("--no-cache", str(repo))
    assert "kept.py" in out and "scratch" not in out and "old_b" not in out
    code, out, _ = run_cli("--no-cache", "--no-respect-gitignore", str(repo))
    assert "scratch" in out and "old_b.py" in out
    write(repo / "pyproject.toml", "[tool.jitlint]\nrespect-gitignore = false\n")
    code, out, _ = run_cli("--no-cache", str(repo))
    assert "scratch" in out


def test_checkpoints_and_extend_exclude(tmp_path, run_cli):
    write(tmp_path / ".ipynb_checkpoints" / "a-checkpoint.py", LOOP)
    write(tmp_path / "gen" / "b.py", LOOP)
    write(tmp_path / "vendored" / "c.py", LOOP)
    write(tmp_path / "d.py", LOOP)
    write(tmp_path / "pyproject.toml", '[tool.jitlint]\nextend-exclude = ["gen"]\n')
    code, out, _ = run_cli("--no-cache", "--extend-exclude", "vendored", str(tmp_path))
    assert "d.py" in out and "a-checkpoint.py" not in out and "b.py" not in out and "c.py" not in out


def test_extend_ignore(tmp_path, run_cli):
    write(tmp_path / "a.py", LOOP)
    write(tmp_path / "pyproject.toml", '[tool.jitlint]\nextend-ignore = ["JIT101"]\n')
    assert run_cli("--no-cache", str(tmp_path))[0] == 0
    write(tmp_path / "pyproject.toml", "[tool.jitlint]\n")
    assert run_cli("--no-cache", "--extend-ignore", "JIT1", str(tmp_path))[0] == 0


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_force_exclude_applies_excludes_to_named_files(tmp_path, run_cli):
    repo = git_repo(tmp_path)
    write(repo / "pyproject.toml", '[tool.jitlint]\nexclude = ["generated"]\n')
    write(repo / ".gitignore", "ignored.py\n")
    named = [str(write(repo / "generated" / "a.py", LOOP)), str(write(repo / "ignored.py", LOOP)),
             str(write(repo / ".ipynb_checkpoints" / "c.py", LOOP)), str(write(repo / "b.py", LOOP))]
    code, out, _ = run_cli("--no-cache", *named)
    assert out.count(": JIT101") == 4  # named files are linted, as in ruff ...
    code, out, _ = run_cli("--no-cache", "--force-exclude", *named)
    assert out.count(": JIT101") == 1 and "b.py" in out  # ... unless --force-exclude


def test_pre_commit_hooks_use_force_exclude():
    import yaml

    for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text()):
        assert "--force-exclude" in hook["entry"].split()


def test_summary_line_and_fixable_markers(tmp_path, run_cli):
    write(tmp_path / "a.py", LOOP)
    write(tmp_path / "b.py", USE.replace("pkg.steps", "steps"))
    write(tmp_path / "steps.py", STEPS)
    code, out, _ = run_cli("--no-cache", str(tmp_path))
    lines = out.splitlines()
    assert any(line.endswith("JIT101 [*] jax.jit of a lambda inside a loop compiles on every "
                             "iteration; create the function once and hoist the jit out of the loop")
               for line in lines)
    assert any(": JIT301 static argument" in line for line in lines)  # no fix: no marker
    assert lines[-1] == "Found 2 findings (1 fixable with `jitlint check --fix`)."
    code, out, _ = run_cli("--no-cache", "--output-format", "full", str(tmp_path))
    assert "JIT101 [*] " in out and out.endswith("Found 2 findings (1 fixable with `jitlint check --fix`).\n")
    code, out, _ = run_cli("--no-cache", "--output-format", "json", str(tmp_path))
    assert "Found" not in out and "[*]" not in out


def test_stdin_with_a_filename(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.jitlint]\nper-file-ignores = { "tests/*" = ["JIT1"] }\n')

    def run(*args: str, data: str = LOOP):
        return subprocess.run([sys.executable, "-m", "jitlint", "check", "--no-cache", *args],
                              input=data, capture_output=True, text=True, cwd=tmp_path)

    proc = run("-", "--stdin-filename", "train.py")
    assert proc.returncode == 1 and proc.stdout.startswith("train.py:6:9: JIT101 [*]")
    assert run("-", "--stdin-filename", "tests/t.py").returncode == 0  # per-file-ignores apply
    fixed = run("-", "--stdin-filename", "train.py", "--fix")
    assert "jitted_lambda = jax.jit(lambda v: v * 2.0)" in fixed.stdout and fixed.returncode == 0
    assert run("-", "x.py").returncode == 2  # `-` alone


def test_rule_lookup_by_name(run_cli):
    code, out, _ = run_cli("rule", "jit-of-lambda")
    assert code == 0 and out.startswith("# JIT101 jit-of-lambda")
    assert run_cli("rule", "no-such-rule")[0] == 2


def test_empty_directory_says_so(tmp_path, run_cli):
    code, out, err = run_cli("--no-cache", str(tmp_path))
    assert code == 0 and "no Python files found" in err


def test_readme_pre_commit_snippet_names_a_ref_that_exists():
    """The README's snippet must work as written: a local hook (jitlint installed in the
    environment) or a `rev` that this repository really has."""
    readme = (ROOT / "README.md").read_text()
    snippet = readme[readme.index("**pre-commit**"):].split("```")[1]
    if "rev:" in snippet:
        rev = snippet.split("rev:")[1].split()[0]
        tags = subprocess.run(["git", "-C", str(ROOT), "tag"], capture_output=True, text=True).stdout
        assert rev in tags.split(), f"README pins rev {rev}, which this repository does not have"
    else:
        assert "repo: local" in snippet and "entry: jitlint check --force-exclude" in snippet
    assert "minutes" in readme[readme.index("whole test suite"):][:400]


def test_unknown_codes_in_noqa_in_a_notebook_are_reported_by_cell(tmp_path, run_cli):
    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": LOOP.replace("(x)\n", "(x)  # noqa: JIT190\n").splitlines(keepends=True)}
    nb = tmp_path / "nb.ipynb"
    nb.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                              "cells": [{"cell_type": "markdown", "metadata": {}, "source": "# x"},
                                        cell]}))
    code, out, err = run_cli("--no-cache", str(nb))
    assert f"jitlint: warning: {nb}:cell 2:line 6: unknown rule code JIT190 in `# noqa`" in err

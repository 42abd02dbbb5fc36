"""The pre-commit hooks, through a real ``pre-commit try-repo`` in a temporary git repository.

pre-commit installs jitlint from this repository into its own virtualenv (once per module,
in a private PRE_COMMIT_HOME), so this needs pip to reach the package index.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from helpers import ROOT

BAD = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.ones(3)
    for step in range(5):
        x = jax.jit(lambda v: v * 2.0)(x)
""")
CLEAN = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    double = jax.jit(lambda v: v * 2.0)
    x = jnp.ones(3)
    for step in range(5):
        x = double(x)
""")

HAVE_PRE_COMMIT = subprocess.run([sys.executable, "-m", "pre_commit", "--version"],
                                 capture_output=True).returncode == 0
pytestmark = pytest.mark.skipif(not HAVE_PRE_COMMIT or shutil.which("git") is None,
                                reason="pre-commit or git is not installed")


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def repo(tmp_path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "clean.py").write_text(CLEAN)
    (tmp_path / "notes.txt").write_text(BAD)  # not Python: the hooks skip it
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    return tmp_path


def try_repo(repo: Path, home: Path, hook: str, *files: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
    env.pop("PRE_COMMIT", None)
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), hook,
                           "--files", *files], cwd=repo, env=env, capture_output=True, text=True,
                          timeout=900)


def test_hooks_file_declares_both_hooks():
    import yaml

    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"jitlint", "jitlint-fix"}
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["types_or"] == ["python", "jupyter"]


def test_check_hook_fails_on_findings_and_passes_on_clean_code(repo, home):
    failing = try_repo(repo, home, "jitlint", "bad.py", "notes.txt")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "bad.py:6:9: JIT101" in failing.stdout
    assert "notes.txt" not in failing.stdout

    passing = try_repo(repo, home, "jitlint", "clean.py", "notes.txt")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout


def test_fix_hook_rewrites_then_passes(repo, home):
    fixing = try_repo(repo, home, "jitlint-fix", "bad.py")
    assert fixing.returncode == 1, fixing.stdout + fixing.stderr  # files were modified
    fixed = (repo / "bad.py").read_text()
    assert "jitted_lambda = jax.jit(lambda v: v * 2.0)" in fixed

    again = try_repo(repo, home, "jitlint-fix", "bad.py")
    assert again.returncode == 0, again.stdout + again.stderr
    assert (repo / "bad.py").read_text() == fixed
    assert try_repo(repo, home, "jitlint", "bad.py").returncode == 0


def test_check_hook_lints_notebooks(repo, home):
    import json

    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": BAD.splitlines(keepends=True)}
    (repo / "bad.ipynb").write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                                                "cells": [cell]}))
    subprocess.run(["git", "add", "bad.ipynb"], cwd=repo, check=True)
    failing = try_repo(repo, home, "jitlint", "bad.ipynb", "notes.txt")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "bad.ipynb:cell 1:line 6:9: JIT101" in failing.stdout


def test_check_hook_applies_excludes_and_sees_the_whole_project(repo, home):
    """pre-commit names each changed file: the hook's --force-exclude keeps `exclude` working,
    and a changed file that calls a jitted function of an unchanged module gets the same
    finding as `jitlint check .`."""
    (repo / "pyproject.toml").write_text('[tool.jitlint]\nexclude = ["generated"]\n')
    (repo / "generated").mkdir()
    (repo / "generated" / "bad.py").write_text(BAD)
    (repo / "steps.py").write_text(
        "from functools import partial\nimport jax\n\n\n@partial(jax.jit, static_argnums=1)\n"
        "def step(x, cfg):\n    return x\n")
    (repo / "use.py").write_text("from steps import step\n\nstep(1.0, [1, 2])\n")
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    excluded = try_repo(repo, home, "jitlint", "generated/bad.py", "clean.py")
    assert excluded.returncode == 0, excluded.stdout + excluded.stderr
    changed = try_repo(repo, home, "jitlint", "use.py")
    assert changed.returncode == 1, changed.stdout + changed.stderr
    assert "use.py:3:11: JIT301" in changed.stdout

"""The pre-commit hooks, as users run them: a ``.pre-commit-config.yaml`` naming this repository
at a commit, and ``pre-commit run`` in a temporary git repository.

The repository is a snapshot of this checkout (its tracked and untracked, not ignored files,
committed once), so pre-commit installs jitlint into its own virtualenv once per module, in a
private PRE_COMMIT_HOME, and every hook run reuses it, as a user's runs do. (``pre-commit
try-repo`` would install it again on every run: it clones into a new directory each time.) This
needs pip to reach the package index.
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


@pytest.fixture(scope="module")
def hooks_repository(tmp_path_factory) -> tuple[Path, str]:
    """This checkout as pre-commit sees a hook repository: a git repository and a commit."""
    snapshot = tmp_path_factory.mktemp("jitlint-hooks")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is not copied
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, snapshot / name)
    git(snapshot, "init", "-q")
    git(snapshot, "add", ".")
    git(snapshot, "commit", "-q", "-m", "snapshot")
    revision = git(snapshot, "rev-parse", "HEAD").stdout.strip()
    return snapshot, revision


def git(directory: Path, *args: str) -> subprocess.CompletedProcess:
    identity = ["-c", "user.name=jitlint tests", "-c", "user.email=tests@jitlint.invalid",
                "-c", "commit.gpgsign=false"]
    return subprocess.run(["git", *identity, *args], cwd=directory, check=True,
                          capture_output=True, text=True)


@pytest.fixture
def repo(tmp_path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "clean.py").write_text(CLEAN)
    (tmp_path / "notes.txt").write_text(BAD)  # not Python: the hooks skip it
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    return tmp_path


@pytest.fixture
def run_hook(repo, home, hooks_repository):
    """``pre-commit run HOOK --files ...`` in ``repo``, whose config names this repository."""
    snapshot, revision = hooks_repository
    config = repo.parent / f"{repo.name}-pre-commit-config.yaml"
    config.write_text(f"repos:\n- repo: {snapshot}\n  rev: {revision}\n"
                      "  hooks:\n  - id: jitlint\n  - id: jitlint-fix\n")

    def run(hook: str, *files: str) -> subprocess.CompletedProcess:
        env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")
        env.pop("PRE_COMMIT", None)
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--config", str(config),
                               hook, "--files", *files], cwd=repo, env=env, capture_output=True,
                              text=True, timeout=900)
    return run


def test_hooks_file_declares_both_hooks():
    import yaml

    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"jitlint", "jitlint-fix"}
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["types_or"] == ["python", "jupyter"]


def test_check_hook_fails_on_findings_and_passes_on_clean_code(repo, run_hook):
    failing = run_hook("jitlint", "bad.py", "notes.txt")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "bad.py:6:9: JIT101" in failing.stdout
    assert "notes.txt" not in failing.stdout

    passing = run_hook("jitlint", "clean.py", "notes.txt")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout


def test_fix_hook_rewrites_then_passes(repo, run_hook):
    fixing = run_hook("jitlint-fix", "bad.py")
    assert fixing.returncode == 1, fixing.stdout + fixing.stderr  # files were modified
    fixed = (repo / "bad.py").read_text()
    assert "jitted_lambda = jax.jit(lambda v: v * 2.0)" in fixed

    again = run_hook("jitlint-fix", "bad.py")
    assert again.returncode == 0, again.stdout + again.stderr
    assert (repo / "bad.py").read_text() == fixed
    assert run_hook("jitlint", "bad.py").returncode == 0


def test_check_hook_lints_notebooks(repo, run_hook):
    import json

    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": BAD.splitlines(keepends=True)}
    (repo / "bad.ipynb").write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                                                "cells": [cell]}))
    subprocess.run(["git", "add", "bad.ipynb"], cwd=repo, check=True)
    failing = run_hook("jitlint", "bad.ipynb", "notes.txt")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "bad.ipynb:cell 1:line 6:9: JIT101" in failing.stdout


def test_check_hook_applies_excludes_and_sees_the_whole_project(repo, run_hook):
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
    excluded = run_hook("jitlint", "generated/bad.py", "clean.py")
    assert excluded.returncode == 0, excluded.stdout + excluded.stderr
    changed = run_hook("jitlint", "use.py")
    assert changed.returncode == 1, changed.stdout + changed.stderr
    assert "use.py:3:11: JIT301" in changed.stdout

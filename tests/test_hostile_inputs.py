"""Hostile inputs: each gets a clear message and the documented exit code, and the other
files are still linted.  (Encodings, BOM, CRLF, syntax errors: see test_cli.py.)"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

from jitlint.config import Settings
from jitlint.engine import lint_source

FINDING = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.ones(3)
    for step in range(5):
        x = jax.jit(lambda v: v * 2.0)(x)
""")


def _json(run_cli, *args):
    code, out, err = run_cli(*args, "--output-format", "json")
    return code, json.loads(out), err


def test_empty_file_is_clean(tmp_path, run_cli):
    (tmp_path / "empty.py").write_bytes(b"")
    assert run_cli(str(tmp_path / "empty.py")) == (0, "All checks passed!\n", "")


def test_mixed_line_endings(tmp_path, run_cli):
    f = tmp_path / "mixed.py"
    f.write_bytes(FINDING.replace("\n", "\r\n", 3).encode())
    code, items, _ = _json(run_cli, str(f))
    assert code == 1 and [(i["code"], i["line"]) for i in items] == [("JIT101", 6)]


def test_a_directory_named_like_a_python_file(tmp_path, run_cli):
    (tmp_path / "x.py").mkdir()
    (tmp_path / "x.py" / "inner.py").write_text(FINDING)
    code, items, _ = _json(run_cli, str(tmp_path / "x.py"))
    assert code == 1 and items[0]["path"].endswith("inner.py")
    code, items, _ = _json(run_cli, str(tmp_path))
    assert code == 1 and len(items) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_symlink_loop_is_a_missing_path_and_in_a_tree_is_skipped(tmp_path, run_cli):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "real.py").write_text(FINDING)
    code, out, err = run_cli(str(tmp_path / "a"), str(tmp_path / "real.py"))
    assert code == 2 and "no such file or directory" in err and "JIT101" in out
    code, out, err = run_cli(str(tmp_path))
    assert code == 1 and out.count("JIT101") == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_unreadable_file_is_jit000(tmp_path, run_cli):
    # Tests run as root, where chmod cannot make a file unreadable; a directory passed where
    # a file is read fails the same way (EISDIR), and so does a dangling symlink inside a tree.
    (tmp_path / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    (tmp_path / "ok.py").write_text(FINDING)
    code, items, _ = _json(run_cli, str(tmp_path))
    codes = {(Path(i["path"]).name, i["code"]) for i in items}
    assert ("dangling.py", "JIT000") in codes and ("ok.py", "JIT101") in codes
    message = next(i["message"] for i in items if i["code"] == "JIT000")
    assert "cannot read file" in message
    assert code == 1


def test_fifty_thousand_line_file(tmp_path):
    body = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(12_500))
    source = "import jax\n" + body + FINDING
    assert source.count("\n") > 50_000
    result = lint_source(source.encode(), "big.py", Settings())
    assert [d.code for d in result.diagnostics] == ["JIT101"]


@pytest.mark.parametrize("source", [
    "import jax\nx = " + "f(" * 150 + "1" + ")" * 150 + "\n",
    "import jax\nx = " + "[" * 80 + "]" * 80 + "\n",
    "import jax\n" + "".join("    " * i + f"if x{i}:\n" for i in range(90)) + "    " * 90 + "pass\n",
    "import jax\nx = " + "-" * 5000 + "1\n",
    "import jax\nx = 1" + " + 1" * 20000 + "\n",
])
def test_deeply_nested_code_never_crashes(source):
    result = lint_source(source.encode(), "deep.py", Settings())
    assert result.internal_error is None
    assert all(d.code == "JIT000" for d in result.diagnostics)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
@pytest.mark.parametrize("extra", [[], ["--output-format", "full"], ["--fix"], ["--diff"]])
def test_a_fifo_or_device_named_like_python_is_jit000_not_a_hang(tmp_path, run_cli, extra):
    # Reading a FIFO with no writer blocks forever; /dev/zero never ends.  Only regular files
    # are read (jitlint.source.read_source), by the lint, the cache, --fix and the output.
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "zeros.py").symlink_to("/dev/zero")
    (tmp_path / "ok.py").write_text(FINDING)
    code, out, err = run_cli("--no-cache", *extra, str(tmp_path))
    if "--diff" in extra:
        assert code == 1 and "+jitted_lambda" in out  # only ok.py has a fix
        return
    assert code == 1, err
    assert out.count("not a regular file (a named pipe, socket or device)") == 2
    assert "pipe.py:1:1: JIT000" in out and "zeros.py:1:1: JIT000" in out
    assert ("JIT101" in out) != ("--fix" in extra)  # linted, or fixed and clean


def test_a_bug_in_a_rule_is_exit_2_and_the_other_files_are_linted(tmp_path, run_cli, monkeypatch):
    from jitlint.rules import ALL_RULES

    def broken(self, ctx):
        if ctx.path.endswith("trigger.py"):
            raise KeyError("a rule's bug")
        return iter(())

    monkeypatch.setattr(ALL_RULES["JIT102"], "check", broken)
    (tmp_path / "trigger.py").write_text(FINDING)
    (tmp_path / "other.py").write_text(FINDING)
    code, out, err = run_cli("--no-cache", "-j", "1", str(tmp_path))
    assert code == 2
    assert f"jitlint: internal error on {tmp_path / 'trigger.py'}: KeyError: \"a rule's bug\" " \
           "at test_hostile_inputs.py:" in err and "(please report it)" in err
    assert "other.py:6:9: JIT101" in out and "Traceback" not in err


def test_a_name_bound_to_the_jits_of_other_callables_never_crashes():
    # ``reset_fn = jax.pmap(...)`` in one branch, ``jax.jit(jax.vmap(...))`` in the other, each
    # called there (brax's ppo train.py): a rebinding that is not ``f = jax.jit(f)``.
    source = textwrap.dedent("""\
        import jax

        def reset(state):
            return state

        if flag:
            reset_fn = jax.pmap(jax.vmap(reset))
            state = reset_fn(state)
        else:
            reset_fn = jax.jit(jax.vmap(reset))
            state = reset_fn(state)
    """)
    result = lint_source(source.encode(), "rebound.py", Settings())
    assert result.internal_error is None

"""``--fix`` never loses a user's bytes: atomic writes, permissions, links, encodings, line
endings and final newlines kept, idempotent, and a file changed on disk meanwhile is not
overwritten.  (Golden outputs and the JAX runs of fixed code: test_fixes.py.)"""

from __future__ import annotations

import ast
import os
import shutil
import stat
import sys
import textwrap
from pathlib import Path

import pytest

import jitlint.fixes as fixes
from helpers import FIXTURES
from jitlint.config import Settings
from jitlint.engine import lint_source
from jitlint.fixes import fix_files

LAMBDA_LOOP = textwrap.dedent("""\
    import jax
    import jax.numpy as jnp

    x = jnp.ones(3)
    for step in range(5):
        x = jax.jit(lambda v: v * 2.0)(x)
    print(x)
""")
FIXED_LINE = "jitted_lambda = jax.jit(lambda v: v * 2.0)"


def _leftovers(directory: Path) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.endswith(".jitlint-tmp")]


def test_the_file_is_replaced_atomically_and_keeps_its_permissions(tmp_path, run_cli):
    path = tmp_path / "loop.py"
    path.write_text(LAMBDA_LOOP)
    path.chmod(0o751)
    inode = path.stat().st_ino
    code, _, err = run_cli("--no-cache", "--fix", str(path))
    assert code == 0 and "fixed 1 finding" in err
    assert FIXED_LINE in path.read_text()
    assert path.stat().st_ino != inode, "a new file renamed over the old one, not rewritten in place"
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert _leftovers(tmp_path) == []


def test_a_failed_write_leaves_the_file_whole(tmp_path, run_cli, monkeypatch):
    path = tmp_path / "loop.py"
    path.write_text(LAMBDA_LOOP)

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fixes.os, "replace", disk_full)
    code, out, err = run_cli("--no-cache", "--fix", str(path))
    assert path.read_text() == LAMBDA_LOOP
    assert f"{path}: cannot write it: No space left on device" in err and "fixed" not in err
    assert code == 1 and "JIT101" in out  # still reported, as it is still there
    assert _leftovers(tmp_path) == []


def test_a_file_changed_on_disk_meanwhile_is_not_overwritten(tmp_path, run_cli, monkeypatch):
    path = tmp_path / "loop.py"
    path.write_text(LAMBDA_LOOP)
    edited = LAMBDA_LOOP.replace("print(x)", "print(x.sum())  # the user's edit")
    real_fix_data = fixes.fix_data

    def fix_then_user_saves(data, name, settings):
        result = real_fix_data(data, name, settings)
        Path(name).write_text(edited)  # the editor saves while jitlint works
        return result

    monkeypatch.setattr(fixes, "fix_data", fix_then_user_saves)
    code, out, err = run_cli("--no-cache", "--fix", str(path))
    assert path.read_text() == edited
    assert "changed on disk while it was being fixed; not written" in err
    assert code == 1 and "JIT101" in out
    assert _leftovers(tmp_path) == []


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_a_symlink_stays_a_symlink(tmp_path, run_cli):
    real = tmp_path / "real.py"
    real.write_text(LAMBDA_LOOP)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    assert run_cli("--no-cache", "--fix", str(link))[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert FIXED_LINE in real.read_text()


@pytest.mark.parametrize("ending", ["\n", ""], ids=["final-newline", "no-final-newline"])
def test_the_final_newline_is_kept_as_it_was(tmp_path, ending):
    path = tmp_path / "loop.py"
    path.write_text(LAMBDA_LOOP.rstrip("\n") + ending)
    [result] = fix_files([str(path)], Settings(root=tmp_path), write=True)
    assert result.applied and result.not_written is None
    text = path.read_text()
    assert FIXED_LINE in text and text.endswith("print(x)" + ending)


def test_mixed_line_endings_are_kept_line_by_line(tmp_path):
    lines = LAMBDA_LOOP.splitlines(keepends=True)
    lines[1] = lines[1].replace("\n", "\r\n")
    lines[6] = lines[6].replace("\n", "\r\n")
    path = tmp_path / "loop.py"
    path.write_bytes("".join(lines).encode())
    fix_files([str(path)], Settings(root=tmp_path), write=True)
    data = path.read_bytes()
    assert b"import jax.numpy as jnp\r\n" in data and b"print(x)\r\n" in data
    assert data.count(b"\r\n") == 2, "no line gained or lost its CR"
    assert FIXED_LINE.encode() + b"\n" in data  # a new line takes the first line's ending


def test_encoding_and_bom_survive_the_write(tmp_path, run_cli):
    latin = tmp_path / "latin.py"
    latin.write_bytes(("# -*- coding: latin-1 -*-\n# Réglages\n" + LAMBDA_LOOP).encode("latin-1"))
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + ("# é\n" + LAMBDA_LOOP).encode())
    assert run_cli("--no-cache", "--fix", str(latin), str(bom))[0] == 0
    assert "# Réglages\n".encode("latin-1") in latin.read_bytes()
    assert FIXED_LINE in latin.read_bytes().decode("latin-1")
    data = bom.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf# \xc3\xa9\n") and data.count(b"\xef\xbb\xbf") == 1


def test_fixed_files_parse_lose_their_findings_and_a_second_fix_changes_nothing(tmp_path, run_cli):
    project = tmp_path / "fixes"
    shutil.copytree(FIXTURES / "fixes", project)
    settings = Settings(root=tmp_path)
    before = {p.name: p.read_bytes() for p in project.glob("*.py")}
    results = {Path(r.path).name: r for r in fix_files(sorted(map(str, project.glob("*.py"))),
                                                       settings, write=True)}
    assert any(r.applied for r in results.values())
    for path in sorted(project.glob("*.py")):
        data = path.read_bytes()
        ast.parse(data)  # still Python
        fixed_codes = {fix.code for fix in results[path.name].applied}
        left = {d.code for d in lint_source(data, str(path), settings).diagnostics}
        assert not fixed_codes & left, path.name
        if not results[path.name].applied:
            assert data == before[path.name], "untouched when nothing was fixed"
    after = {p.name: p.read_bytes() for p in project.glob("*.py")}
    again = fix_files(sorted(map(str, project.glob("*.py"))), settings, write=True)
    assert not any(r.changed for r in again)
    assert {p.name: p.read_bytes() for p in project.glob("*.py")} == after

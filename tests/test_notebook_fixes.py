"""Issue 17 item 4: ``--fix`` / ``--diff`` on notebooks, cell by cell, keeping outputs and
metadata; through the real CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

OUTPUTS = [{"output_type": "stream", "name": "stdout", "text": ["ready\n"]}]


def notebook(*cells) -> dict:
    return {"cells": list(cells), "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                        "display_name": "Python 3 (ünïcode)"}}}


def code(source: str, count=None, outputs=(), metadata=None) -> dict:
    return {"cell_type": "code", "execution_count": count, "metadata": metadata or {},
            "outputs": list(outputs), "source": source.splitlines(keepends=True)}


SETUP = code("import jax\nimport jax.numpy as jnp\nfrom functools import partial\n\nx = jnp.ones(3)",
             count=1, outputs=OUTPUTS, metadata={"tags": ["setup"]})
LOOP = code("for step in range(5):\n    x = jax.jit(lambda v: v * 2.0)(x)\nx", count=2,
            outputs=[{"output_type": "execute_result", "execution_count": 2, "metadata": {},
                      "data": {"text/plain": ["Array([32., 32., 32.], dtype=float32)"]}}])
STATIC_DEF = code("@partial(jax.jit, static_argnums=1)\ndef scale(v, factors):\n    return v * len(factors)")
STATIC_CALL = code("y = scale(x, [1, 2])")
MARKDOWN = {"cell_type": "markdown", "metadata": {}, "source": ["# Training\n", "Text."]}


def write(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def jitlint(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jitlint", "check", "--no-cache", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_diff_shows_each_changed_cell_and_changes_nothing(tmp_path):
    nb = write(tmp_path / "train.ipynb", notebook(MARKDOWN, SETUP, LOOP))
    before = nb.read_bytes()
    proc = jitlint(tmp_path, "--diff", "train.ipynb")
    assert proc.returncode == 1
    assert proc.stdout.startswith("--- train.ipynb:cell 3\n+++ train.ipynb:cell 3\n")
    assert "+jitted_lambda = jax.jit(lambda v: v * 2.0)\n" in proc.stdout
    assert "-    x = jax.jit(lambda v: v * 2.0)(x)\n+    x = jitted_lambda(x)\n" in proc.stdout
    assert nb.read_bytes() == before


def test_fix_rewrites_only_the_sources_of_the_fixed_cells(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    original = notebook(MARKDOWN, SETUP, LOOP, STATIC_DEF, STATIC_CALL)
    nb = write(tmp_path / "train.ipynb", original)
    listed = jitlint(tmp_path, "train.ipynb")
    assert "cell 3:line 2:9: JIT101 [*]" in listed.stdout and "cell 5:line 1:14: JIT301 [*]" in listed.stdout
    proc = jitlint(tmp_path, "--fix", "train.ipynb")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # nothing left
    fixed = json.loads(nb.read_text(encoding="utf-8"))
    nbformat.validate(nbformat.reads(nb.read_text(encoding="utf-8"), as_version=4))
    assert "".join(fixed["cells"][2]["source"]) == (
        "jitted_lambda = jax.jit(lambda v: v * 2.0)\nfor step in range(5):\n"
        "    x = jitted_lambda(x)\nx")
    assert "".join(fixed["cells"][4]["source"]) == "y = scale(x, (1, 2))"  # jitted in cell 4
    for index in (0, 1, 3):  # the other cells: byte for byte
        assert fixed["cells"][index] == original["cells"][index]
    for index in (2, 4):  # outputs, counts and metadata of the fixed cells too
        for key in ("outputs", "execution_count", "metadata"):
            assert fixed["cells"][index][key] == original["cells"][index][key]
    assert fixed["metadata"] == original["metadata"]
    assert "ünïcode" in nb.read_text(encoding="utf-8")  # the layout is nbformat's, as it was
    again = nb.read_bytes()
    assert jitlint(tmp_path, "--fix", "train.ipynb").returncode == 0 and nb.read_bytes() == again


def test_a_cell_with_magics_is_never_rewritten(tmp_path):
    magic = code("%%time\nfor step in range(5):\n    x = jax.jit(lambda v: v * 2.0)(x)")
    nb = write(tmp_path / "train.ipynb", notebook(SETUP, magic))
    before = nb.read_bytes()
    proc = jitlint(tmp_path, "--fix", "train.ipynb")
    assert proc.returncode == 1 and "cell 2:line 3:9: JIT101" in proc.stdout
    assert nb.read_bytes() == before

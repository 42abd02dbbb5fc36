"""Linting Jupyter notebooks: cells joined in order, IPython syntax neutralised, positions as
``cell``/``line``, malformed notebooks as JIT000 (jitlint/notebook.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import FIXTURES, ROOT, actual_findings, EXPECT
from jitlint.config import Settings
from jitlint.engine import iter_python_files, lint_file
from jitlint.notebook import build_notebook
from jitlint.output import FORMATS

NOTEBOOKS = sorted((FIXTURES / "notebooks").glob("*.ipynb"))
JSON_KEYS = {"path", "line", "column", "end_line", "end_column", "code", "name", "message",
             "severity", "fix"}


def notebook(*cells: str, language: str = "python", nbformat: int = 4) -> dict:
    return {"nbformat": nbformat, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "k", "display_name": "k", "language": language}},
            "cells": [{"cell_type": "markdown", "metadata": {}, "source": c[3:]} if c.startswith("md:")
                      else {"cell_type": "code", "metadata": {}, "execution_count": None,
                            "outputs": [], "source": c.splitlines(keepends=True)} for c in cells]}


def write_nb(path: Path, *cells: str, **kwargs) -> Path:
    path.write_text(json.dumps(notebook(*cells, **kwargs), indent=1), encoding="utf-8")
    return path


def lint(path: Path):
    result = lint_file(str(path), Settings(root=path.parent))
    assert result.internal_error is None
    return result.diagnostics


def cell_marks(path: Path) -> set[tuple[int, int, str]]:
    """(cell, line in cell, code) for each ``# expect: CODE`` in a notebook's code cells."""
    document = json.loads(path.read_text(encoding="utf-8"))
    marks = set()
    for number, cell in enumerate(document["cells"], start=1):
        if cell["cell_type"] != "code":
            continue
        for line_number, line in enumerate("".join(cell["source"]).splitlines(), start=1):
            match = EXPECT.search(line)
            if match:
                marks.update((number, line_number, code.strip())
                             for code in match.group("codes").split(","))
    return marks


LAMBDA_LOOP = "for i in range(3):\n    y = jax.jit(lambda v: v + 1)(x)\n"
IMPORTS = "import jax\nimport jax.numpy as jnp\nx = jnp.ones(3)\n"


# ---------------------------------------------------------------------------- fixtures
def test_there_are_notebook_fixtures():
    assert len(NOTEBOOKS) >= 4
    assert any(cell_marks(p) for p in NOTEBOOKS) and any(not cell_marks(p) for p in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_findings_match_marks(path: Path):
    [result] = actual_findings([path])
    assert result.internal_error is None
    assert {(d.cell, d.line, d.code) for d in result.diagnostics} == cell_marks(path)


def test_a_function_jitted_in_one_cell_is_known_in_a_later_one(tmp_path):
    define = "from functools import partial\nimport jax\nimport jax.numpy as jnp\n\n" \
             "@partial(jax.jit, static_argnums=1)\ndef shift(x, k):\n    return jnp.roll(x, k)\n"
    use = "x = jnp.arange(8.0)\nfor k in range(5):\n    y = shift(x, k)\n"
    found = lint(write_nb(tmp_path / "a.ipynb", define, "md:text", use))
    assert [(d.cell, d.line, d.column, d.code) for d in found] == [(3, 3, 18, "JIT401")]
    assert found[0].absolute_line == define.count("\n") + 3
    # Without the defining cell the call is to an unknown function: nothing to say.
    assert lint(write_nb(tmp_path / "b.ipynb", "import jax\nimport jax.numpy as jnp\n", use)) == []


def test_noqa_in_a_cell(tmp_path):
    assert [d.code for d in lint(write_nb(tmp_path / "a.ipynb", IMPORTS, LAMBDA_LOOP))] == ["JIT101"]
    quiet = LAMBDA_LOOP.replace("(x)\n", "(x)  # noqa: JIT101\n")
    assert lint(write_nb(tmp_path / "b.ipynb", IMPORTS, quiet)) == []
    assert lint(write_nb(tmp_path / "c.ipynb", "# jitlint: noqa\n" + IMPORTS, LAMBDA_LOOP)) == []


# ---------------------------------------------------------------------------- IPython syntax
def neutralised(*cells: str) -> list[str]:
    return build_notebook(list(enumerate(cells, start=1))).source.splitlines()


def test_magics_and_shell_escapes_become_neutral_lines_in_place():
    cell = ("!pip install -q jax\n%matplotlib inline\nfiles = !ls\na, b = %who_ls\n"
            "jax.jit?\n??jax\nfor i in range(2):\n    %timeit f(i)\n%time \\\n  f(x)\nx = 1")
    assert neutralised(cell) == ["pass", "pass", "files = get_ipython()", "a, b = get_ipython()",
                                 "pass", "pass", "for i in range(2):", "    pass", "pass", "",
                                 "x = 1"]


def test_python_cells_are_never_changed():
    cell = 's = """\n%notmagic\n!bang\nwhat?\n"""\nprint(s % 2)  # what?\nx = (1,\n     2)'
    assert neutralised(cell) == cell.splitlines()


def test_cell_magics():
    assert neutralised("%%time\nfor i in range(2):\n    y = i") == \
        ["", "for i in range(2):", "    y = i"]
    assert neutralised("%%timeit -n 3 setup()\nf(x)") == ["", "f(x)"]
    assert neutralised("%%bash\nfor i in 1 2; do echo $i; done") == ["", ""]
    assert neutralised("%%writefile m.py\nimport jax") == ["", ""]


def test_an_indented_cell_is_dedented_and_columns_stay_those_of_the_cell(tmp_path):
    cell = "  for i in range(3):\n      y = jax.jit(lambda v: v + 1)(x)"
    [d] = lint(write_nb(tmp_path / "a.ipynb", IMPORTS, cell))
    assert (d.cell, d.line, d.column, d.code) == (2, 2, 11, "JIT101")


def test_magic_cells_keep_their_findings_in_place(tmp_path):
    cell = "%%time\n!nvidia-smi\n" + LAMBDA_LOOP
    [d] = lint(write_nb(tmp_path / "a.ipynb", IMPORTS, cell))
    assert (d.cell, d.line, d.column) == (2, 4, 9)


def test_a_cell_that_is_not_python_is_reported_and_the_others_are_linted(tmp_path):
    found = lint(write_nb(tmp_path / "a.ipynb", IMPORTS, "apt install jax", "def f(:\n  pass",
                          LAMBDA_LOOP))
    assert [(d.cell, d.line, d.code) for d in found] == [(2, 1, "JIT000"), (3, 1, "JIT000"),
                                                         (4, 2, "JIT101")]
    assert found[0].message.endswith("this cell was not linted") and found[0].column == 5


def test_non_python_notebooks_are_skipped(tmp_path):
    assert lint(write_nb(tmp_path / "r.ipynb", "x <- c(1, 2)\nfor (i in x) print(i)",
                         language="R")) == []


def test_nbformat_3(tmp_path):
    document = {"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": [
        {"cell_type": "code", "input": IMPORTS.splitlines(True), "language": "python", "outputs": []},
        {"cell_type": "heading", "source": "Loop", "level": 1},
        {"cell_type": "code", "input": LAMBDA_LOOP, "language": "python", "outputs": []}]}]}
    path = tmp_path / "old.ipynb"
    path.write_text(json.dumps(document))
    assert [(d.cell, d.line, d.code) for d in lint(path)] == [(3, 2, "JIT101")]


# ---------------------------------------------------------------------------- malformed
@pytest.mark.parametrize("content, reason, line", [
    (b"", "empty file", 1),
    (b'{\n "cells": [\n  {"cell_type": "code",,}\n ]\n}', "invalid JSON", 3),
    (b"[1, 2]", "the JSON is a list", 1),
    (b'{"cells": []}', "no integer 'nbformat'", 1),
    (b'{"nbformat": 4, "cells": {}}', "'cells' is missing or not a list", 1),
    (b'{"nbformat": 4, "cells": [{"source": "x"}]}', "cell 1 has no 'cell_type'", 1),
    (b'{"nbformat": 4, "cells": [{"cell_type": "code", "source": 3}]}', "is not text", 1),
    (b'{"nbformat": 5, "cells": []}', "nbformat 5 is not supported", 1),
    (b'{"nbformat": 4, "cells": ["\xff"]}', "not valid UTF-8", 1),
    (b"[" * 100000 + b"]" * 100000, "", 1),
])
def test_a_malformed_notebook_is_jit000_with_a_reason(tmp_path, content, reason, line):
    path = tmp_path / "bad.ipynb"
    path.write_bytes(content)
    [d] = lint(path)
    assert d.code == "JIT000" and reason in d.message and d.line == line and d.cell is None
    proc = subprocess.run([sys.executable, "-m", "jitlint", "--no-cache", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "JIT000" in proc.stdout


def test_binary_garbage_is_jit000(tmp_path):
    path = tmp_path / "bad.ipynb"
    path.write_bytes(bytes(range(256)) * 4)
    [d] = lint(path)
    assert d.code == "JIT000"


# ---------------------------------------------------------------------------- output
def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jitlint", "--no-cache", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_json_has_cell_and_cell_lines_and_py_files_keep_the_contracts_keys(tmp_path):
    write_nb(tmp_path / "nb.ipynb", IMPORTS, "md:# loop", LAMBDA_LOOP)
    (tmp_path / "m.py").write_text(IMPORTS + LAMBDA_LOOP)
    proc = cli("--output-format", "json", ".", cwd=tmp_path)
    by_path = {d["path"]: d for d in json.loads(proc.stdout)}
    nb, py = by_path["nb.ipynb"], by_path["m.py"]
    assert set(py) == JSON_KEYS and py["line"] == 5
    assert set(nb) == JSON_KEYS | {"cell", "absolute_line"}
    assert (nb["cell"], nb["line"], nb["end_line"], nb["column"], nb["absolute_line"]) == (3, 2, 2, 9, 5)
    assert nb["fix"] == py["fix"] == {"applicability": "safe",
                                      "message": "build `jitted_lambda` once above the loop"}
    lines = [json.loads(line) for line in cli("--output-format", "json-lines", "nb.ipynb",
                                              cwd=tmp_path).stdout.splitlines()]
    assert lines == [nb]


def test_concise_and_full_formats(tmp_path):
    write_nb(tmp_path / "nb.ipynb", IMPORTS, "md:# loop", LAMBDA_LOOP)
    concise = cli("nb.ipynb", cwd=tmp_path)
    assert concise.returncode == 1
    assert concise.stdout.startswith("nb.ipynb:cell 3:line 2:9: JIT101 [*] jax.jit of a lambda")
    full = cli("--output-format", "full", "nb.ipynb", cwd=tmp_path).stdout
    assert full.splitlines()[0].startswith("nb.ipynb:cell 3:line 2:9: JIT101")
    assert "2 |     y = jax.jit(lambda v: v + 1)(x)" in full and "^^^^" in full


def test_github_and_sarif_formats(tmp_path):
    write_nb(tmp_path / "nb.ipynb", IMPORTS, "md:# loop", LAMBDA_LOOP)
    github = cli("--output-format", "github", "nb.ipynb", cwd=tmp_path).stdout
    assert github.startswith("::warning file=nb.ipynb,title=JIT101::cell 3, line 2, column 9: ")
    sarif = json.loads(cli("--output-format", "sarif", "nb.ipynb", cwd=tmp_path).stdout)
    [result] = sarif["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["endLine"], region["startColumn"]) == (5, 5, 9)
    assert result["properties"] == {"cell": 3, "cellLine": 2, "cellEndLine": 2}


def test_every_format_handles_notebook_findings(tmp_path):
    path = write_nb(tmp_path / "nb.ipynb", IMPORTS, LAMBDA_LOOP, "apt install x")
    found = lint(path)
    for name, format_ in FORMATS.items():
        text = format_(found) if name != "full" else format_(found, color=False)
        assert "JIT101" in text and "JIT000" in text, name


# ---------------------------------------------------------------------------- the engine
def test_directories_find_notebooks_and_excludes_apply(tmp_path):
    write_nb(tmp_path / "a.ipynb", IMPORTS)
    (tmp_path / "skip").mkdir()
    write_nb(tmp_path / "skip" / "b.ipynb", IMPORTS)
    (tmp_path / "c.py").write_text("x = 1\n")
    files = list(iter_python_files([str(tmp_path)], Settings(root=tmp_path, exclude=("skip",))))
    assert sorted(Path(f).name for f in files) == ["a.ipynb", "c.py"]


def test_cache_relints_a_changed_notebook(tmp_path):
    path = write_nb(tmp_path / "nb.ipynb", IMPORTS, LAMBDA_LOOP)
    cache = tmp_path / "cache"

    def cells():
        proc = subprocess.run([sys.executable, "-m", "jitlint", "--cache-dir", str(cache),
                               "--output-format", "json", "nb.ipynb"],
                              capture_output=True, text=True, cwd=tmp_path)
        return [d["cell"] for d in json.loads(proc.stdout)]

    assert cells() == [2] and any(cache.rglob("*"))
    assert cells() == [2]  # from the cache
    write_nb(path, IMPORTS, "md:moved", LAMBDA_LOOP)
    assert cells() == [3]


def test_a_notebook_uses_jitted_functions_of_the_project_and_shadows_no_module(tmp_path):
    (tmp_path / "steps.py").write_text(
        "from functools import partial\nimport jax\nimport jax.numpy as jnp\n\n\n"
        "@partial(jax.jit, static_argnums=1)\ndef shift(x, k):\n    return jnp.roll(x, k)\n")
    write_nb(tmp_path / "explore.ipynb", "from steps import shift\nimport numpy as np",
             "x = np.arange(8.0)\nfor k in range(5):\n    y = shift(x, k)")
    write_nb(tmp_path / "steps.ipynb", "import steps")  # a notebook named like the module
    proc = cli("--output-format", "json", ".", cwd=tmp_path)
    assert [(d["path"], d["cell"], d["line"], d["code"]) for d in json.loads(proc.stdout)] == \
        [("explore.ipynb", 2, 3, "JIT401")]


def test_fix_rewrites_the_cell_and_keeps_the_rest(tmp_path):
    # Cell by cell (tests/test_notebook_fixes.py has the details).
    path = write_nb(tmp_path / "nb.ipynb", IMPORTS, LAMBDA_LOOP)
    before = json.loads(path.read_bytes())
    proc = cli("--fix", "nb.ipynb", cwd=tmp_path)
    after = json.loads(path.read_bytes())
    assert proc.returncode == 0 and "JIT101" not in proc.stdout
    assert after["cells"][0] == before["cells"][0] and after["metadata"] == before["metadata"]
    assert "jitted_lambda" in "".join(after["cells"][1]["source"])


def test_linting_notebooks_imports_neither_jax_nor_ipython(tmp_path):
    path = write_nb(tmp_path / "nb.ipynb", IMPORTS, LAMBDA_LOOP)
    script = ("import sys, jitlint\nfrom jitlint.cli import main\nrc = main(['--no-cache', sys.argv[1]])\n"
              "heavy = [m for m in ('jax', 'IPython', 'nbformat') if m in sys.modules]\n"
              "assert rc == 1 and not heavy, heavy\n")
    proc = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "JIT101" in proc.stdout


def test_precommit_hooks_take_notebooks():
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert hooks.count("types_or: [python, jupyter]") == 2 and "types: [python]" not in hooks

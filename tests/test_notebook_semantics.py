"""Notebooks run cell by cell: a name means the binding live at the cell that reads it
(redefinitions and re-imports across cells), and automagic lines (``timeit -n 5 f(x)``
without ``%``) are IPython, not syntax errors (jitlint/notebook.py, SemanticModel.bindings_at)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from helpers import FIXTURES, run_counting_compiles
from jitlint.notebook import build_notebook, read_notebook
from jitlint.semantic import build_model
from test_notebooks import IMPORTS, LAMBDA_LOOP, lint, write_nb

REDEFINED = FIXTURES / "notebooks" / "redefined_across_cells_ok.ipynb"


def notebook_as_script(path: Path, tmp_path: Path) -> Path:
    """The notebook's code cells as the one script jitlint lints (magics neutralised)."""
    script = tmp_path / (path.stem + ".py")
    script.write_text(read_notebook(path.read_bytes()).source, encoding="utf-8")
    return script


# ---------------------------------------------------------------------------- redefinitions
def test_a_function_redefined_in_a_later_cell_is_the_one_jitted_there(tmp_path):
    assert lint(REDEFINED) == []
    # The notebook runs as written: no ValueError from static_argnums=(1,).
    report = run_counting_compiles(notebook_as_script(REDEFINED, tmp_path))
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    assert "[8. 8. 8.]" in report["stdout"]


def test_the_first_definition_still_counts_before_the_redefinition(tmp_path):
    one = "def f(x):\n    return x\n"
    two = "def f(x, n):\n    return x * n\n"
    bad = "g = jax.jit(f, static_argnums=(1,))\n"
    found = lint(write_nb(tmp_path / "a.ipynb", IMPORTS, one, bad, two))
    assert [(d.cell, d.line, d.code) for d in found] == [(3, 1, "JIT702")]
    assert lint(write_nb(tmp_path / "b.ipynb", IMPORTS, one, two, bad)) == []


def test_a_reimport_in_a_later_cell_rebinds_the_name(tmp_path):
    numba_jit = "from numba import jit\n"
    jax_jit = "from jax import jit\n"
    loop = "for i in range(3):\n    y = jit(lambda v: v + 1)(x)\n"
    found = lint(write_nb(tmp_path / "a.ipynb", IMPORTS, numba_jit, jax_jit, loop))
    assert [(d.cell, d.line, d.code) for d in found] == [(4, 2, "JIT101")]
    assert lint(write_nb(tmp_path / "b.ipynb", IMPORTS, jax_jit, numba_jit, loop)) == []


def _resolved(source: str, name_index: int):
    """The qualified name of the ``name_index``-th read of ``jit`` in ``source``."""
    module = cst.parse_module(source)
    model = build_model(module)
    reads = [site for site in model.calls if isinstance(site.node.func, cst.Name)
             and site.node.func.value == "jit"]
    site = reads[name_index]
    return model.qualified_name(site.node.func, site.frame.scope)


def test_flow_insensitive_where_order_does_not_decide():
    # A conditional rebinding after the last unconditional one: either may be live.
    assert _resolved("from jax import jit\nif c:\n    from numba import jit\njit(f)\n", 0) is None
    # A loop that rebinds the name below the read: the second iteration sees the rebinding.
    assert _resolved("from jax import jit\nfor i in r:\n    jit(f)\n    from numba import jit\n",
                     0) is None
    # Inside a function the read happens when it is called, after every module binding.
    assert _resolved("from jax import jit\ndef g():\n    jit(f)\nfrom numba import jit\n", 0) is None
    # Straight-line code: the binding above the read.
    assert _resolved("from numba import jit\nfrom jax import jit\njit(f)\n", 0) == "jax.jit"
    assert _resolved("from jax import jit\njit(f)\nfrom numba import jit\njit(f)\n", 0) == "jax.jit"
    assert _resolved("from jax import jit\njit(f)\nfrom numba import jit\njit(f)\n", 1) == "numba.jit"


# ---------------------------------------------------------------------------- automagic
def neutralised(cell: str) -> list[str]:
    notebook = build_notebook([(1, cell)])
    assert notebook.errors == []
    return notebook.source.splitlines()


def test_automagic_lines_become_neutral_lines_in_place():
    cell = ("timeit -n 5 pmap(jnp.dot)(a, b)\npip install -q optax\nfor i in range(2):\n"
            "    time f(i)\nload_ext autoreload\nautoreload 2\ny = 1")
    assert neutralised(cell) == ["pass", "pass", "for i in range(2):", "    pass", "pass", "pass",
                                 "y = 1"]


def test_a_magic_name_used_as_python_stays_python():
    cell = "time = 3\ntime -= 1\nprint(time)\ntimeit\nrun(x)\npip install x"
    assert neutralised(cell) == ["time = 3", "time -= 1", "print(time)", "timeit", "run(x)", "pass"]


def test_findings_after_an_automagic_line_keep_their_cell_and_line(tmp_path):
    cell = "timeit -n 5 jnp.dot(x, x)\n" + LAMBDA_LOOP
    found = lint(write_nb(tmp_path / "a.ipynb", IMPORTS, "md:text", cell))
    assert [(d.cell, d.line, d.column, d.code) for d in found] == [(3, 3, 9, "JIT101")]


def test_an_unknown_word_at_line_start_is_still_a_syntax_error(tmp_path):
    found = lint(write_nb(tmp_path / "a.ipynb", IMPORTS, "apt install jax"))
    assert [(d.cell, d.code) for d in found] == [(2, "JIT000")]


# ---------------------------------------------------------------------------- demo cells
def test_a_cell_tagged_raises_exception_shows_its_error_on_purpose(tmp_path):
    import json

    from test_notebooks import notebook

    demo = ("@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n\nf(1.0)\n")
    document = notebook(IMPORTS, demo, demo.replace("def f", "def g").replace("f(1.0)", "g(1.0)"),
                        LAMBDA_LOOP)
    document["cells"][1]["metadata"]["tags"] = ["raises-exception"]
    document["cells"][3]["metadata"]["tags"] = ["raises-exception"]
    path = tmp_path / "demo.ipynb"
    path.write_text(json.dumps(document), encoding="utf-8")
    # The untagged copy keeps its error; a warning in a tagged cell is kept too.
    assert [(d.cell, d.code) for d in lint(path)] == [(3, "JIT801"), (4, "JIT101")]


def test_deliberate_recompiles_run_and_stay_quiet(tmp_path):
    """Cold-compile benchmarks after jax.clear_caches(), .lower().compile() timing, a
    profiling call at another batch size, a helper called at two shapes: all recompile on
    purpose, none is reported."""
    from collections import Counter

    path = FIXTURES / "notebooks" / "deliberate_recompiles_ok.ipynb"
    assert lint(path) == []
    report = run_counting_compiles(notebook_as_script(path, tmp_path))
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = Counter(e["fun_name"] for e in report["compiles"])
    assert compiles["jit(<lambda>)"] >= 3 + 3  # 3 cold compiles + 3 lowered sizes
    assert compiles["jit(step)"] == 2  # batch 8, then 256 (the %time line is neutralised)
    assert compiles["jit(inner)"] == 2  # normalise at shapes (3,) and (7,)

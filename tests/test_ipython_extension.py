"""``%load_ext jitlint``: per-cell compile counts in a real IPython shell, with real JAX."""

from __future__ import annotations

import logging
import os

import pytest

from helpers import FIXTURES

IPython = pytest.importorskip("IPython")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

SETUP = "import jax\nimport jax.numpy as jnp\nfrom functools import partial\nx = jnp.ones(3)\n"


@pytest.fixture(scope="module")
def shell():
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    ip = InteractiveShell.instance(config=config)
    ip.run_cell("%load_ext jitlint", store_history=True)
    ip.run_cell(SETUP, store_history=True)
    yield ip
    ip.run_line_magic("unload_ext", "jitlint")


@pytest.fixture
def run(shell, capsys):
    shell.run_line_magic("jitlint", "on")
    capsys.readouterr()

    def run_cell(source: str):
        result = shell.run_cell(source, store_history=True)
        out, err = capsys.readouterr()
        return result, out, err

    return run_cell


def test_jit_of_a_lambda_in_a_loop_warns_with_the_count_and_jax_reason(run, shell):
    result, out, err = run("for i in range(4):\n    y = jax.jit(lambda v: v + 1.0)(x)")
    assert result.success
    number = shell.execution_count - 1
    assert f"jitlint: 4 compiles in this cell: <lambda> (In [{number}], line 2) x4" in out
    assert f"jitlint: warning: <lambda> (In [{number}], line 2) compiled 4 times in this cell " \
           f"with the same shapes (float32[3])" in err
    assert "never seen function" in err and "re-defined repeatedly" in err  # JAX's own words


def test_a_clean_cell_is_silent(run):
    run("@jax.jit\ndef double(v):\n    return v * 2.0\n\n\ny = double(x)")  # the first compile
    for source in ("for _ in range(5):\n    y = double(x)", "z = 1 + 1", "y = x * 3"):
        assert run(source)[1:] == ("", ""), source


def test_a_first_compile_is_counted_without_a_warning(run):
    _, out, err = run("@jax.jit\ndef total(v):\n    return jnp.sum(v ** 2)\n\n\nt = total(x)")
    assert "jitlint: 1 compile in this cell: total (In [" in out and err == ""


def test_new_shapes_are_counted_but_not_warned_about(run):
    _, out, err = run("@jax.jit\ndef head(v):\n    return v.sum()\n\n\n"
                      "data = jnp.arange(8.0)\nfor i in range(1, 4):\n    head(data[:i])")
    assert "head (In [" in out and "x3" in out and err == ""


def test_static_arguments(run):
    define = "@partial(jax.jit, static_argnums=1)\ndef scale(v, k):\n    return v * k\n\n\n"
    _, out, err = run(define + "for flag in [True, False, True, False]:\n    scale(x, flag)")
    assert "scale (In [" in out and "x2" in out and err == ""  # two values: cached, fine
    _, out, err = run(define + "for k in range(5):\n    scale(x, k)")
    assert "compiled 5 times in this cell with the same shapes (float32[3])" in err
    assert "a static argument had a new value each time" in err and "Static(val=4)" in err


def test_jitlint_off_silences_and_on_resumes_within_the_cell(run):
    loop = "for i in range(3):\n    y = jax.jit(lambda v: v - 1.0)(x)"
    assert run("%jitlint off")[1:] == ("", "")
    assert run(loop)[1:] == ("", "")
    _, out, err = run("%jitlint on\n" + loop)
    assert "3 compiles" in out and "compiled 3 times" in err
    _, out, err = run("%jitlint")
    assert "reporting is on" in out


def test_warnings_mode_prints_only_warnings(run):
    run("%jitlint warnings")
    _, out, err = run("@jax.jit\ndef once(v):\n    return v + 1\n\n\nz = once(x)")
    assert out == "" and err == ""
    _, out, err = run("for i in range(2):\n    y = jax.jit(lambda v: v * 5.0)(x)")
    assert out == "" and "compiled 2 times" in err


def test_a_failing_cell_is_reported_and_jax_and_logging_are_restored(run):
    import jax

    _, out, err = run("for i in range(2):\n    y = jax.jit(lambda v: v / 2.0)(x)\n1 / 0")
    assert "2 compiles" in out and "compiled 2 times" in err
    logger = logging.getLogger("jax._src.interpreters.pxla")
    assert logger.propagate and logger.level == logging.NOTSET and not logger.handlers
    assert not jax.config.jax_explain_cache_misses


def test_importing_jitlint_loads_no_ipython_or_jax():
    import subprocess
    import sys

    script = "import sys, jitlint\nassert not {'jax', 'IPython'} & set(sys.modules)\n" \
             "assert callable(jitlint.load_ipython_extension)"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_a_notebook_end_to_end_in_a_kernel(tmp_path):
    """Execute the fixture notebook in a real Jupyter kernel (nbclient) and read its outputs."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(FIXTURES / "notebooks" / "live_compile_counts.ipynb", as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute(env=dict(os.environ, JAX_PLATFORMS="cpu"))

    def outputs(cell: int) -> tuple[str, str]:
        streams = {"stdout": "", "stderr": ""}
        for output in notebook.cells[cell - 1].outputs:
            if output.get("output_type") == "stream":
                streams[output["name"]] += output["text"]
        return streams["stdout"], streams["stderr"]

    assert outputs(2) == ("", "")
    out, err = outputs(3)
    assert "jitlint: 4 compiles in this cell: <lambda> (In [2], line 2) x4" in out
    assert "compiled 4 times in this cell with the same shapes (float32[3])" in err
    assert "never seen function" in err
    assert outputs(4) == ("75.0\njitlint: 1 compile in this cell: total (In [3], line 1) x1\n", "")
    assert outputs(5) == ("75.0\n" * 3, "")  # cached: silent
    assert outputs(6) == ("jitlint: 2 compiles in this cell: scale (In [5], line 1) x2\n", "")
    assert outputs(7) == outputs(8) == ("", "")  # %jitlint off
    out, err = outputs(9)
    assert "3 compiles" in out and "compiled 3 times" in err


def test_the_loading_cell_counts_and_command_line_runs_report(tmp_path):
    """``ipython -c`` is one cell, which loads the extension; ``ipython script.ipy`` runs
    silently (no cell events): it is reported once, when the run ends.  Both as a user runs
    them, from a folder outside the source tree, side by side."""
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor

    code = ("%load_ext jitlint\n" + SETUP + "for i in range({n}):\n"
            "    y = jax.jit(lambda v: v + 1.0)(x)\n")
    (tmp_path / "steps.ipy").write_text(code.format(n=3))
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    runs = [["-c", code.format(n=4)], ["steps.ipy"]]

    def ipython(args):
        return subprocess.run([sys.executable, "-m", "IPython", "--no-banner", "--quick", *args],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)

    with ThreadPoolExecutor(max_workers=2) as pool:
        command, script = pool.map(ipython, runs)
    assert "jitlint: 4 compiles in this cell: <lambda> (In [1], line 7) x4" in command.stdout, \
        command.stdout + command.stderr
    assert "compiled 4 times in this cell with the same shapes (float32[3])" in command.stderr
    assert "jitlint: 3 compiles since %load_ext jitlint: <lambda>" in script.stdout, \
        script.stdout + script.stderr
    assert "compiled 3 times since %load_ext jitlint with the same shapes" in script.stderr

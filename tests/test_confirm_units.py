"""The parts of --confirm that need no JAX: explanations, sites, instrumentation plumbing."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from jitlint.engine import Diagnostic
from jitlint.runtime.attribution import parse_miss
from jitlint.runtime.runner import run_command
from jitlint.runtime.sites import build_sites

NEVER_SEEN = """TRACING CACHE MISS at /p/train.py:27:8 (<module>):
  never seen function:
    <lambda> id=139807426563104 defined at /p/train.py:27
  but seen another function defined on the same line; maybe the function is
  being re-defined repeatedly, preventing caching?"""

DIFFERENT_TYPES = """TRACING CACHE MISS at train.py:20 (main):
  for step defined at train.py:13
  all previously seen cache keys differ. For the closest previous key:
  different input types:
  * at x, now f32[4] and before f32[3]"""


def test_parse_never_seen_function():
    miss = parse_miss(NEVER_SEEN)
    assert (miss.call_file, miss.call_line) == ("/p/train.py", 27)
    assert (miss.name, miss.def_file, miss.def_line) == ("<lambda>", "/p/train.py", 27)
    assert miss.reason.startswith("never seen function; but seen another function")


def test_parse_relative_paths_and_reason():
    miss = parse_miss(DIFFERENT_TYPES, cwd="/work")
    assert (miss.call_file, miss.call_line, miss.name) == ("/work/train.py", 20, "step")
    assert (miss.def_file, miss.def_line) == ("/work/train.py", 13)
    assert miss.reason.endswith("* at x, now f32[4] and before f32[3]")


def test_callable_instance_has_no_definition():
    miss = parse_miss("TRACING CACHE MISS at /p/m.py:22:8 (<module>):\n  never seen function:\n"
                      "    <unknown> id=1396")
    assert (miss.name, miss.def_file, miss.def_line) == ("<unknown>", None, None)


def _site(tmp_path: Path, source: str, line: int, end_line: int | None = None):
    path = tmp_path / "case.py"
    path.write_text(textwrap.dedent(source))
    d = Diagnostic(str(path), line, 1, end_line or line, 2, "JIT102", "x", "m", "warning")
    [site] = build_sites([d])
    return site


def test_decorator_finding_links_to_its_def_and_counts_the_header(tmp_path):
    site = _site(tmp_path, """\
        import jax

        def train_step(w):
            @other
            @jax.jit
            def update(w):
                return w

            return update(w)
        """, 5)
    assert site.def_lines == {4}  # co_firstlineno: the first decorator
    assert site.count == (4, 6, "train_step", 3)  # decorators .. def, run by train_step


def test_factory_finding_links_to_the_nested_def(tmp_path):
    site = _site(tmp_path, """\
        import jax

        def make(lr):
            def update(w):
                return w * lr
            return jax.jit(update)
        """, 6)
    assert site.def_lines == {4}
    assert site.count == (6, 6, "make", 3)


def test_module_level_function_is_seen_at_its_call_sites_only(tmp_path):
    site = _site(tmp_path, """\
        import jax

        def f(x):
            return x

        g = jax.jit(f)
        """, 6)
    assert site.def_lines == frozenset()
    assert site.count == (6, 6, "<module>", 1)


def test_run_command_chains_an_existing_sitecustomize(tmp_path):
    custom = tmp_path / "custom"
    custom.mkdir()
    marker = tmp_path / "marker"
    (custom / "sitecustomize.py").write_text(
        f"import pathlib\npathlib.Path({str(marker)!r}).write_text('chained')\n")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(custom)}
    result = run_command([sys.executable, "-c", "print('hello')"], str(tmp_path), env, 60, None,
                         "python -c")
    assert result.returncode == 0, result.stderr_tail
    assert marker.read_text() == "chained"
    [report] = result.reports  # one per Python process, here the only one
    assert report["jax"] is False and report["outcome"]["status"] == "ok"


def test_run_command_records_an_uncaught_exception(tmp_path):
    script = tmp_path / "boom.py"
    script.write_text("def main():\n    raise KeyError('missing')\n\nmain()\n")
    result = run_command([sys.executable, str(script)], str(tmp_path), {"PATH": "/usr/bin:/bin"},
                         60, None, "python boom.py")
    assert result.returncode == 1
    [report] = result.reports
    outcome = report["outcome"]
    assert outcome["type"] == "KeyError"
    assert [frame[1] for frame in outcome["stack"]] == [2, 4]  # innermost first
    assert "KeyError" in result.stderr_tail  # the user's traceback still printed


def test_a_command_that_cannot_start_is_reported(tmp_path):
    result = run_command(["/nonexistent/python"], str(tmp_path), {}, 10, None, "x")
    assert result.start_error is not None
    assert "could not start" in result.failure(10)

"""The parts of --confirm that need no JAX: explanations, sites, instrumentation plumbing."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from jitlint.engine import Diagnostic
from jitlint.runtime.attribution import (Compile, Recompilation, exception_line, first_line, parse_miss,
                                         recompilations)
from jitlint.runtime.runner import run_command
from jitlint.runtime.sites import build_sites, verdict_kind
from jitlint.rules import ALL_RULES

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


FIRST_FORWARD = """TRACING CACHE MISS at /p/train.py:30 (<module>):
  never seen function:
    forward id=1 defined at /p/train.py:9"""

SHAPE_CHANGED = """TRACING CACHE MISS at /p/train.py:30 (<module>):
  for forward defined at /p/train.py:9
  all previously seen cache keys differ. For the closest previous key:
  different input types:
  * at x, now f32[2] and before f32[4]"""

STATIC_CHANGED = """TRACING CACHE MISS at /p/train.py:30 (<module>):
  for forward defined at /p/train.py:9
  all previously seen cache keys differ. For the closest previous key:
  different input pytree:
  * at input path [0][1], now <class 'jax._src.tree_util.Static'> with pytree metadata Static(val=False) and before <class 'jax._src.tree_util.Static'> with pytree metadata Static(val=True), so the pytree node metadata does not match"""

JAX_TRACEBACK = """Traceback (most recent call last):
  File "train.py", line 8, in <module>
    offset = jax.jit(lambda w, b: w + b)(weights, bias)
TypeError: add got incompatible shapes for broadcasting: (3,), (4,).
--------------------
For simplicity, JAX has removed its internal frames from the traceback of the following exception. Set JAX_TRACEBACK_FILTERING=off to include these."""


def test_a_failure_reason_is_the_errors_own_line():
    assert exception_line(JAX_TRACEBACK) == "TypeError: add got incompatible shapes for broadcasting: (3,), (4,)."
    assert first_line("\n--------------------\nFor simplicity, JAX has removed its internal frames\n"
                      "Abstract tracer value encountered\nmore") == "Abstract tracer value encountered"


def _recompilation(*reasons: str, compiles: int = 3) -> Recompilation:
    return Recompilation("/p/train.py", 30, "forward", "/p/train.py", 9, compiles, list(reasons))


def test_jit900_says_what_changed_in_words():
    assert _recompilation(parse_miss(NEVER_SEEN).reason).cause().startswith(
        "the function object is new each time")
    assert _recompilation(parse_miss(STATIC_CHANGED).reason).cause().startswith(
        "a static argument takes a new value each time")
    assert _recompilation(parse_miss(DIFFERENT_TYPES).reason).cause().startswith(
        "argument shapes or dtypes change (at x, now f32[4] and before f32[3])")
    both = _recompilation(parse_miss(DIFFERENT_TYPES).reason, parse_miss(STATIC_CHANGED).reason)
    assert both.cause().count(";") >= 2 and both.reason.count("; ") == 1  # every reason kept


def _compile(miss_text: str, line: int) -> Compile:
    return Compile("jit(forward)", "forward", [("/p/train.py", line, "<module>")],
                   parse_miss(miss_text), [("/p/train.py", 5, "<module>")])


def test_jit900_leaves_a_two_value_static_flag_alone_but_not_a_third_value():
    two = [_compile(FIRST_FORWARD, 30), _compile(STATIC_CHANGED, 30)]
    assert recompilations([({}, two)], []) == []
    three = two + [_compile(STATIC_CHANGED, 30)]
    [found] = recompilations([({}, three)], [])
    assert found.compiles == 3
    shapes = [_compile(FIRST_FORWARD, 30), _compile(SHAPE_CHANGED, 30)]
    assert len(recompilations([({}, shapes)], [])) == 1  # two shapes (a ragged batch) are reported


def test_the_docs_list_every_rule_once_with_its_verdict_kind():
    text = (Path(__file__).resolve().parent.parent / "docs" / "confirm.md").read_text()
    section = text.split("### Verdict kind of every rule", 1)[1].split("\n#", 1)[0]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("| JIT")]
    codes = [row[0] for row in rows]
    assert sorted(codes) == sorted(ALL_RULES) and len(codes) == len(set(codes))
    for code, name, kind in rows:
        assert (name, kind) == (ALL_RULES[code].name, verdict_kind(code)), code
    assert verdict_kind("JIT805") == "error"  # @jax.jit on a plain class's method raises

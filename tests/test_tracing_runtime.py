"""JIT5xx / JIT6xx / JIT8xx claims, measured with real JAX on the CPU.

* trace_errors: each positive fixture raises the error its rule names, at the marked line
  (JIT804: prints a tracer once and nothing else); each negative runs without error.
* shape_churn: each positive compiles its jitted function on every iteration (or, for weak-type
  churn, more than once); each negative compiles it once.
* stale_values: each positive's last line of output (``# runtime: prints <text>``) differs from
  what the same script prints with jit disabled (``# runtime without jit: prints <text>``): a
  stale value; each negative prints the same with and without jit.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import (FIXTURES, declared_compiles, expected_findings, run_all_counting_compiles,
                     run_all_without_jit, user_function_compiles)

TRACE_ERRORS = sorted((FIXTURES / "trace_errors").glob("*.py"))
SHAPE_CHURN = sorted((FIXTURES / "shape_churn").glob("*.py"))
STALE_VALUES = sorted((FIXTURES / "stale_values").glob("*.py"))
ALL = TRACE_ERRORS + SHAPE_CHURN + STALE_VALUES

# The error each rule's positives raise (exception class name, as the bootstrap reports it).
RAISES = {
    "JIT801": {"TracerBoolConversionError", "ValueError",  # ValueError: an array of more than one element
               "AssertionError"},  # ``assert isinstance(tracer, int)``
    "JIT802": {"ConcretizationTypeError", "TracerBoolConversionError", "TracerIntegerConversionError",
               "TypeError", "ValueError", "AttributeError",  # AttributeError: ``x.device`` of a tracer
               "TracerArrayConversionError",  # a lax parameter that lax converts with NumPy (conv strides)
               "IndexError"},  # a traced slice bound (``x[:n]``)
    "JIT803": {"TracerArrayConversionError", "ValueError",  # ValueError: a tracer stored in a NumPy array
               "NonConcreteBooleanIndexError"},  # SciPy's array-API mode: each function fails its own way
    "JIT810": {"UnexpectedTracerError"},
    "JIT811": {"ValueError", "NotImplementedError", "RuntimeError"},  # the branch's own raise
    "JIT812": {"OverflowError"},
    "JIT813": {"ValueError"},  # not functionalized
    "JIT814": {"NameError"},  # unbound axis name
    "JIT815": {"TypeError"},  # lax.cond / switch branch output types differ
    "JIT817": {"NotImplementedError", "TypeError"},  # the singledispatch fallback's own raise
    "JIT818": {"TypeError"},  # JAX arrays are immutable
}
# Raised after the function is traced, when JAX checks the staged program: from the jit (or
# lax.scan) call, never from the marked line.
RAISED_AT_THE_CALL = {"JIT813"}
# Shown where the fix goes, not where it raises: the singledispatch registration for jax.Array
# (the fallback raises, called from the traced code)
RAISED_FROM_ANOTHER_DEF = {"JIT817"}
FIELD_DECLARATION = re.compile(r"^\s+\w+\s*:\s*[^=#]+(#.*)?$")  # ``    resolution: Tuple[int, int]``
TRACER = re.compile(r"JitTracer\(|Traced<")  # a tracer's repr (jax 0.10: JitTracer(float32[3]))
OPT_IN_MARK = re.compile(r"#\s*expect-opt-in:\s*(JIT\d{3})")  # found only when selected
DECLARED_PRINT = re.compile(r"^# runtime: prints (?P<text>.+)$", re.M)
DECLARED_EAGER = re.compile(r"^# runtime without jit: prints (?P<text>.+)$", re.M)


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    return run_all_counting_compiles(ALL)


@pytest.mark.parametrize("path", TRACE_ERRORS, ids=lambda p: p.name)
def test_trace_error_fixture_behaves_as_claimed(path: Path, reports):
    report = reports[path]
    outcome = report["outcome"]
    marks = expected_findings(path)
    codes = {code for _, code in marks} | set(OPT_IN_MARK.findall(path.read_text()))
    if codes & RAISES.keys():
        [(line, code)] = marks
        assert outcome["status"] == "raised", f"{path.name} ran without error"
        if outcome["type"] == "JaxRuntimeError" and "CpuCallback error" in outcome["message"]:
            # an error inside a host callback (jax.pure_callback) surfaces at the jitted call
            return
        assert outcome["type"] in RAISES[code], outcome
        # The marked line raises: the innermost frame, or (a finding shown where the value
        # that raises is passed, JIT802 on a pytree leaf) the call on the stack leading to it.
        frames = [frame[1] for frame in outcome["stack"] if Path(frame[0]) == path]
        # ... or (a field declared as Python ints that its pytree makes a leaf) the declaration
        declaration = FIELD_DECLARATION.match(path.read_text().splitlines()[line - 1])
        assert frames and (frames[0] == line or line in frames[1:] or code in RAISED_AT_THE_CALL
                           or code in RAISED_FROM_ANOTHER_DEF or declaration), outcome["stack"]
    else:
        assert outcome["status"] == "ok", report["stderr"][-2000:]
    if "JIT804" in codes:
        # The body runs once, at trace time: one tracer printed, never the values.
        assert len(TRACER.findall(report["stdout"])) == 1, report["stdout"]
    elif not codes:
        assert not TRACER.search(report["stdout"]), report["stdout"]


@pytest.mark.parametrize("path", SHAPE_CHURN, ids=lambda p: p.name)
def test_shape_churn_fixture_compiles_as_claimed(path: Path, reports):
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    declared = declared_compiles(path)
    assert declared, f"{path.name} declares no '# runtime: NAME compiles N times'"
    compiles = user_function_compiles(report, path)
    for name, count in declared.items():
        name = "<lambda>" if name not in compiles and "<lambda>" in compiles else name
        assert compiles.get(name, 0) == count, (name, compiles)
    codes = {code for _, code in expected_findings(path)}
    if "JIT501" in codes:
        assert max(declared.values()) >= 5  # a compile on every one of the 5 iterations
    elif codes & {"JIT502", "JIT505"}:  # a second dtype; a warm-up that compiles another program
        assert max(declared.values()) >= 2
    elif "# intended:" not in path.read_text(encoding="utf-8"):
        # a negative compiles once, unless it says why more compiles are what it means to pay
        # (a benchmark sweep warms up each size)
        assert set(declared.values()) == {1}


@pytest.fixture(scope="module")
def eager_outputs() -> dict[Path, str]:
    """The stale-value fixtures run again with jit disabled: every call runs the Python body."""
    pytest.importorskip("jax")
    return run_all_without_jit(STALE_VALUES)


def _last_line(stdout: str) -> str:
    lines = stdout.strip().splitlines()
    return lines[-1].strip() if lines else ""


@pytest.mark.parametrize("path", STALE_VALUES, ids=lambda p: p.name)
def test_stale_value_fixture_prints_as_claimed(path: Path, reports, eager_outputs):
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    text = path.read_text()
    [jitted] = DECLARED_PRINT.findall(text)
    eager = DECLARED_EAGER.findall(text) or [jitted]
    assert _last_line(report["stdout"]) == jitted.strip(), report["stdout"]
    assert _last_line(eager_outputs[path]) == eager[0].strip(), eager_outputs[path]
    if expected_findings(path):
        # The jitted result differs from what the same code computes without jit: stale, and
        # not because of a recompile (one compile however often it is called).
        assert jitted.strip() != eager[0].strip()
        assert all(count == 1 for count in user_function_compiles(report, path).values())
    else:
        assert not DECLARED_EAGER.search(text)

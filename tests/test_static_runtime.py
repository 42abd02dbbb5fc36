"""Static-argument claims (JIT2xx/3xx/4xx/7xx), measured with real JAX on the CPU.

Every top-level fixture in fixtures/static declares its measured outcome:
``# runtime: raises ValueError`` or ``# runtime: NAME compiles N times``.  Positives must show
the declared error (with JAX's own message) or a compile per call; negatives compile each of
their jitted functions once unless a count is declared (a bool toggle: twice, by design).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from helpers import FIXTURES, expected_findings, run_all_counting_compiles, user_function_compiles

STATIC = FIXTURES / "static"
SCRIPTS = sorted(STATIC.glob("*.py"))  # the package's modules run through the crossmod_* scripts
from helpers import DECLARED_COMPILES as COMPILES
RAISES = re.compile(r"# runtime: raises (?P<type>\w+)")
JAX_MESSAGES = {
    "JIT204": ("Abstract tracer value encountered where concrete value is expected",
               "The __index__() method was called on traced array",
               "Shapes must be 1D sequences of concrete values of integer type, got (JitTracer"),
    "JIT301": ("Non-hashable static arguments are not supported",
               "unhashable type: 'Scale'"),  # jax.jit of an unhashable callable instance
    "JIT701": ("Jitted function has invalid argnames",
               "`jitkwargs` cannot contain 'static_argnums', 'static_argnames'",  # eqx.filter_jit
               # a name hidden by a decorator without functools.wraps: the traced value reaches a shape
               "Shapes must be 1D sequences of concrete values of integer type, got (JitTracer"),
    "JIT702": ("Jitted function has static_argnums=",
               "the `static_argnums` argument to `jax.checkpoint` / `jax.remat` can only take",
               "All static broadcasted arguments must be passed positionally",  # pmap
               "jit() takes from 0 to 1 positional arguments",  # the spec passed by position
               "'str' object cannot be interpreted as an integer"),  # names given as static_argnums
    "JIT704": "Attempted boolean conversion of traced array",
    # a parameter static only by position, passed by keyword: traced, and used as a shape
    "JIT706": "Shapes must be 1D sequences of concrete values of integer type, got (JitTracer",
    "JIT801": "Attempted boolean conversion of traced array",
    "JIT703": "Jitted function has donate_argnums=",
    "JIT707": ("Buffer has been deleted or donated",  # passed to a jitted call again
               "Array has been deleted"),  # read by anything else
    "JIT708": "Non-hashable static arguments are not supported",
    # the traced half that should be static is no JAX type; the static array is unhashable
    "JIT709": ("Error interpreting argument to", "Non-hashable static arguments are not supported"),
    "JIT705": ("vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional",
               "tuple index out of range"),  # pmap with static_broadcasted_argnums (jax#6302)
}


def _compiles(report: dict, script: Path) -> Counter:
    package = sorted((STATIC / "crossmod").glob("*.py")) if script.name.startswith("crossmod_") else ()
    return user_function_compiles(report, script, package)


def _codes(script: Path) -> set[str]:
    marked = expected_findings(script)
    if script.name == "crossmod_run_pipeline.py":
        marked |= expected_findings(STATIC / "crossmod" / "pipeline.py")
    return {code for _, code in marked}


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    pytest.importorskip("equinox")
    return run_all_counting_compiles(SCRIPTS)


def test_every_script_declares_or_is_negative():
    for script in SCRIPTS:
        text = script.read_text(encoding="utf-8")
        if _codes(script):
            assert COMPILES.search(text) or RAISES.search(text), f"{script.name} declares no outcome"


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_static_fixture_behaves_as_claimed(path: Path, reports):
    report = reports[path]
    text = path.read_text(encoding="utf-8")
    codes = _codes(path)
    raised = RAISES.search(text)
    if raised:
        assert report["outcome"]["status"] == "raised", "expected an error, the script ran fine"
        assert report["outcome"]["type"] == raised["type"], report["outcome"]
        for code in codes:
            messages = JAX_MESSAGES[code] if isinstance(JAX_MESSAGES[code], tuple) else (JAX_MESSAGES[code],)
            assert any(m in report["outcome"]["message"] for m in messages), report["outcome"]["message"]
        return
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = _compiles(report, path)
    declared = {m["name"]: int(m["n"]) for m in COMPILES.finditer(text)}
    if codes:
        # Every positive loops 5 times: a compile on every call of the declared function.
        assert declared and all(n >= 5 for n in declared.values()), declared
    for name, count in declared.items():
        assert compiles.get(name, 0) == count, (name, compiles)
    for name, count in compiles.items():
        assert count == declared.get(name, 1), (name, compiles)

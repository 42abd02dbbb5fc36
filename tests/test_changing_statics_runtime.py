"""Changing and unhashable statics that reach the cache key by other routes (issue 27), measured
with real JAX on the CPU: default lambdas made per call, classes with __hash__ but no __eq__
(also as the body of an eager lax.scan), a decorator under eqx.filter_jit, equinox Module
fields (an array in a static field, also a flax.struct one; a jit wrapper made per instance),
attributes and helper results under filter_jit, and a jax.tree_util.Partial
binding a static argument passed traced.

Every fixture in fixtures/changing_statics declares its outcome: ``# runtime: raises TYPE``
(with the message JAX or equinox gives for that code) or ``# runtime: NAME compiles N times``
(``scan`` counts the eager lax.scan programs).  A positive compiles its function on every new
value (N >= 2); a negative compiles each of its jitted functions once unless declared.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from jitlint.jaxfacts import FILTER_JITTED_LIBRARY_FUNCTIONS
from helpers import FIXTURES, declared_compiles, expected_findings, run_all_counting_compiles, user_function_compiles

FAMILY = FIXTURES / "changing_statics"
SCRIPTS = sorted(FAMILY.glob("*.py"))  # models/ holds the modules the crossmod_* scripts import
RAISES = re.compile(r"# runtime: raises (?P<type>\w+)")
MESSAGES = {
    # a tracer reaches the static parameter of the inner jit
    "JIT203": "Non-hashable static arguments are not supported",
    # an array in pytree metadata: the second instance is compared with the first
    "JIT301": "Exception raised while checking equality of metadata fields",
}


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    pytest.importorskip("equinox")
    pytest.importorskip("flax")
    return run_all_counting_compiles(SCRIPTS)


def _compiles(report: dict, script: Path) -> Counter:
    counts = user_function_compiles(report, script, sorted((FAMILY / "models").glob("*.py")))
    library = {f"jit({name.rpartition('.')[2]})" for name in FILTER_JITTED_LIBRARY_FUNCTIONS}
    for event in report["compiles"]:
        if event["fun_name"] == "jit(scan)":  # an eager lax.scan: its own program
            counts["scan"] += 1
        elif event["fun_name"] in library:  # ``diffrax.diffeqsolve``: filter_jit inside the library
            counts[event["fun_name"][4:-1]] += 1
    return counts


def test_positives_and_negatives_exist():
    positives = [p for p in SCRIPTS if expected_findings(p)]
    assert len(positives) >= 8 and len(SCRIPTS) - len(positives) >= 5


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_changing_static_fixture_behaves_as_claimed(path: Path, reports):
    report = reports[path]
    text = path.read_text(encoding="utf-8")
    codes = {code for _, code in expected_findings(path)}
    raised = RAISES.search(text)
    if raised:
        assert report["outcome"]["status"] == "raised", "expected an error, the script ran fine"
        assert report["outcome"]["type"] == raised["type"], report["outcome"]
        for code in codes:
            assert MESSAGES[code] in report["outcome"]["message"], report["outcome"]["message"]
        return
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = _compiles(report, path)
    declared = declared_compiles(path)
    if codes:
        assert declared and all(n >= 2 for n in declared.values()), declared
    for name, count in declared.items():
        assert compiles.get(name, 0) == count, (name, compiles)
    for name, count in compiles.items():
        assert count == declared.get(name, 1), (name, compiles)

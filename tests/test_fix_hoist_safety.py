"""``--fix`` hoisting (JIT101/JIT102) never changes what a program computes.

Each program under ``tests/fix_safety_programs/`` jits a callable in a loop.  The ``unsafe_``
ones read something the loop changes behind the callable's back (a global rebound through a
called function, a nonlocal, an attribute, a container mutated by a callee or handed to one, a
global read by a helper the callable calls): hoisting the jit would bake in the first value, so
the fix must leave them untouched, also with ``--unsafe-fixes`` (known or likely wrong: no fix
is offered).  The ``safe_`` ones must be fixed.  The ``hidden_`` ones hoist correctly, but jitlint
cannot prove it (a function that writes what the lambda reads exists but the loop does not call
it; a list is handed to a function it cannot see into): only ``--unsafe-fixes`` fixes them.
Every program is run with real JAX before and after the fix (unsafe fixes included); the outputs
must be identical.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import ROOT, run_all_outputs
from jitlint.config import Settings
from jitlint.engine import lint_source
from jitlint.fixes import fix_source

UNSAFE_FIXES = Settings(root=ROOT, unsafe_fixes=True)

PROGRAMS = sorted((ROOT / "tests" / "fix_safety_programs").glob("*.py"))


def _jit_in_loop_codes(data: bytes) -> set[str]:
    found = lint_source(data, "program.py", Settings(root=ROOT)).diagnostics
    return {d.code for d in found if d.code in ("JIT101", "JIT102")}


def test_there_are_safe_and_unsafe_programs():
    names = [p.name for p in PROGRAMS]
    assert sum(n.startswith("unsafe_") for n in names) >= 6
    assert sum(n.startswith("safe_") for n in names) >= 2
    assert sum(n.startswith("hidden_") for n in names) >= 2


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_fix_is_applied_only_where_safe(path: Path):
    data = path.read_bytes()
    result = fix_source(data, str(path), Settings(root=ROOT))
    with_unsafe = fix_source(data, str(path), UNSAFE_FIXES)
    if path.name.startswith("unsafe_"):
        assert not result.changed, result.diff()
        assert not with_unsafe.changed, with_unsafe.diff()
    elif path.name.startswith("hidden_"):
        assert not result.changed, result.diff()
        assert with_unsafe.changed and not _jit_in_loop_codes(with_unsafe.fixed), with_unsafe.diff()
        assert {fix.applicability for fix in with_unsafe.applied} == {"unsafe"}
    else:
        assert _jit_in_loop_codes(data), "the program has a jit in a loop to fix"
        assert result.changed and not _jit_in_loop_codes(result.fixed), result.diff()


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, tuple[str, str]]:
    """(output before, output after the fix) per program, run with real JAX."""
    pytest.importorskip("jax")
    directory = tmp_path_factory.mktemp("fixed")
    pairs = []
    for path in PROGRAMS:
        fixed = directory / path.name
        fixed.write_bytes(fix_source(path.read_bytes(), str(path), UNSAFE_FIXES).fixed)
        pairs.append((path, fixed))
    ran = run_all_outputs([script for pair in pairs for script in pair])
    return {path.name: (ran[path], ran[fixed]) for path, fixed in pairs}


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_fixed_program_prints_the_same(path: Path, outputs):
    before, after = outputs[path.name]
    assert before.strip() and before == after


def test_an_unsafe_hoist_would_change_the_output(tmp_path):
    """The programs are real traps: hoisting by hand changes what one of them prints."""
    pytest.importorskip("jax")
    original = ROOT / "tests" / "fix_safety_programs" / "unsafe_global_via_called_function.py"
    source = original.read_text()
    hoisted = source.replace("for step in range(3):\n    x = jax.jit(lambda v: v * SCALE)(x)",
                             "jitted = jax.jit(lambda v: v * SCALE)\nfor step in range(3):\n    x = jitted(x)")
    assert hoisted != source
    path = tmp_path / "hoisted.py"
    path.write_text(hoisted)
    ran = run_all_outputs([path, original])
    assert ran[path] != ran[original]

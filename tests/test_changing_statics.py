"""How a class that defines __hash__ without __eq__ compares, resolved against its bases in
this module and across modules (the twins of JIT402): equality, not the hash, decides whether
two instances share a compiled program."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from jitlint.config import Settings
from jitlint.engine import iter_python_files, lint_files, lint_source

CALLS = """
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=0)
def apply(fn, x):
    return fn(x)


first, second = Body(), Body()
apply(first, jnp.ones(3))
apply(second, jnp.ones(3))
"""
HASH_ONLY = "    def __call__(self, x):\n        return x\n\n    def __hash__(self):\n        return 0\n"


def _codes(source: str) -> list[str]:
    return [d.code for d in lint_source(textwrap.dedent(source).encode(), "m.py", Settings()).diagnostics]


@pytest.mark.parametrize("base, expected", [
    ("", ["JIT402"]),  # object's __eq__: identity
    ("class Base:\n    pass\n", ["JIT402"]),
    ("class Base:\n    def __eq__(self, other):\n        return True\n", []),  # eq by value, now hashable
    ("class Base:\n    def __eq__(self, other):\n        return True\n\n"
     "    def __hash__(self):\n        return 1\n", []),
])
def test_hash_without_eq_compares_as_its_base(base, expected):
    bases = "(Base)" if base else ""
    source = f"{base}\n\nclass Body{bases}:\n{HASH_ONLY}\n{CALLS}"
    assert _codes(source) == expected


@pytest.mark.parametrize("base_body, expected", [
    ("    pass\n", ["JIT402"]),
    ("    def __eq__(self, other):\n        return True\n", []),
])
def test_hash_without_eq_across_modules(tmp_path: Path, base_body, expected):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "base.py").write_text(f"class Base:\n{base_body}")
    (tmp_path / "pkg" / "body.py").write_text(f"from pkg.base import Base\n\n\nclass Body(Base):\n{HASH_ONLY}")
    (tmp_path / "run.py").write_text("from pkg.body import Body\n" + CALLS)
    settings = Settings(root=tmp_path)
    results = lint_files(list(iter_python_files([str(tmp_path)], settings)), settings, jobs=1)
    found = [d.code for r in results if r.path.endswith("run.py") for d in r.diagnostics]
    assert found == expected


AUTOJIT_SWEEP = """
import jax.numpy as jnp
from scipy._lib.array_api_extra._lib._utils._helpers import jax_autojit


def shift(x, y: float, plus: bool):
    return x + y if plus else x - y


shifted = jax_autojit(shift)
x = jnp.arange(4.0)
for y in [0.5, 1.5, 2.5, 3.5, 4.5]:
    print(shifted(x, {arg}, True))
"""


def test_known_filtering_wrapper_makes_a_float_sweep_static():
    """scipy's vendored ``jax_autojit`` is a known wrapper with equinox.filter_jit's behaviour
    (jitnames.KNOWN_JIT_WRAPPERS; its compile per float is measured in test_jaxfacts.py): a
    float sweep is JIT403, named after the wrapper; the same sweep as arrays is silent."""
    [found] = lint_source(textwrap.dedent(AUTOJIT_SWEEP.format(arg="y")).encode(), "m.py", Settings()).diagnostics
    assert found.code == "JIT403" and "jax_autojit (like equinox.filter_jit)" in found.message
    assert _codes(AUTOJIT_SWEEP.format(arg="jnp.asarray(y)")) == []

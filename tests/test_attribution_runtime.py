"""The child's attribution on a real JAX run, whatever the install: whose frames are whose (by
where the interpreter installs libraries, not by a path's words) and the values behind
attributes a jitted body reads (``obj.attr``, a module's attribute)."""

from __future__ import annotations

import json
import os
import sys
import textwrap

import pytest

from jitlint.runtime.attribution import compiles_of
from jitlint.runtime.runner import run_script

PROGRAM = """\
import functools
import types

import jax
import jax.numpy as jnp

import settings
import scaled  # makes and calls a jit at import: the user's module, not a library's

config = types.SimpleNamespace(lr=0.1)


@jax.jit
def sgd(w, g):
    return w - config.lr * g


@jax.jit
def shift(v):
    return v + settings.offset


x = jnp.ones(2)
for step in range(3):
    sgd(x, x)
    config.lr = 0.01
    shift(x)
    settings.offset += 1.0
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    pytest.importorskip("jax")
    # A project folder whose path has "site-packages" in it, though no interpreter installs
    # anything there: its code is the user's.
    app = tmp_path_factory.mktemp("run") / "site-packages" / "app"
    app.mkdir(parents=True)
    (app / "train.py").write_text(PROGRAM)
    (app / "settings.py").write_text("offset = 0.0\n")
    (app / "scaled.py").write_text(textwrap.dedent("""\
        import functools

        import jax
        import jax.numpy as jnp

        double = jax.jit(functools.partial(jnp.multiply, 2.0))
        print(double(jnp.ones(3)))
        """))
    lines = PROGRAM.splitlines()
    spec = []
    for ident, (owner, read) in enumerate((("sgd", "config.lr"), ("shift", "settings.offset"))):
        owner_line = next(n for n, text in enumerate(lines, 1) if f"def {owner}(" in text) - 1
        line = next(n for n, text in enumerate(lines, 1) if read in text and "return" in text)
        spec.append([ident, str(app / "train.py"), line, line, owner, owner_line, "read", [read]])
    (app.parent / "lines.json").write_text(json.dumps(spec))
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    result = run_script(sys.executable, [str(app / "train.py")], str(app), env, 300,
                        str(app.parent / "lines.json"), "train.py")
    assert result.returncode == 0 and result.reports, result.stderr_tail
    [found] = result.reports
    found["app"] = os.path.realpath(app)
    return found


def test_a_users_module_is_the_users_wherever_its_folder_is(report):
    app = report["app"]
    assert not any(app == place or app.startswith(place + os.sep) for place, _ in report["libraries"])
    made = [event for event in compiles_of(report) if event.name == "multiply"]
    assert len(made) == 1 and made[0].made_here() is not None, report["compiles"]
    assert made[0].made_here()[:2] == (os.path.join(app, "scaled.py"), 6)


def test_attribute_reads_show_the_traced_and_the_later_value(report):
    lr, offset = report["stale"]["0"], report["stale"]["1"]
    assert (lr["was"], lr["now"], lr["traces"], lr["calls"]) == (
        {"config.lr": "0.1"}, {"config.lr": "0.01"}, 1, 3)
    assert (offset["was"], offset["now"], offset["changed"]) == (
        {"settings.offset": "0.0"}, {"settings.offset": "1.0"}, 2)

"""Issue 24's types for JIT104, measured: every fixture in fixtures/receivers (receivers whose
class comes from a pytest fixture, an annotation, ``self.attr``, another module of the project,
a flax linen Module) runs for real under the compile counter, and each jitted function compiles
as often as the fixture declares (``# runtime: NAME compiles N times``; 1 when not declared).
Classes of installed packages: ``test_installed_package`` below.  Real JAX on the CPU."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import (FIXTURES, declared_compiles, expected_findings, run_all_counting_compiles,
                     run_counting_compiles, user_function_compiles)

from jitlint.config import Settings
from jitlint.engine import lint_files
from jitlint.rule import UNKNOWN_CALLERS

RECEIVERS = sorted((FIXTURES / "receivers").glob("*.py"))
PACKAGE = sorted((FIXTURES / "receivers" / "nets").glob("*.py"))


@pytest.fixture(scope="module")
def reports() -> dict[Path, dict]:
    pytest.importorskip("jax")
    pytest.importorskip("flax")
    return run_all_counting_compiles(RECEIVERS)


def test_every_spelling_has_positive_and_negative_fixtures():
    positives = [p for p in RECEIVERS if expected_findings(p)]
    negatives = [p for p in RECEIVERS if not expected_findings(p)]
    assert len(positives) >= 6 and len(negatives) >= 4


@pytest.mark.parametrize("path", RECEIVERS, ids=lambda p: p.name)
def test_fixture_compiles_as_declared(path: Path, reports):
    report = reports[path]
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = user_function_compiles(report, path, also=PACKAGE)
    compiles["apply"] = sum(1 for e in report["compiles"] if e["fun_name"] == "jit(apply)")  # linen's
    compiles = +compiles
    declared = declared_compiles(path)
    assert compiles, "the fixture compiled none of its own functions"
    for name, count in compiles.items():
        assert count == declared.get(name, 1), (name, dict(compiles))
    if expected_findings(path):
        assert max(compiles.values()) >= 5, "a positive fixture must show the recompiles it reports"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


INSTALLED = {
    "tinyjaxlib/__init__.py": """
        from .compile import compiled_jit
        from .models import Scaler
    """,
    "tinyjaxlib/compile.py": '''
        import jax


        def compiled_jit(fn, **options):
            """A library's jit wrapper: a fresh jax.jit of what it is given."""
            return jax.jit(fn, **options)
    ''',
    "tinyjaxlib/models.py": """
        class Scaler:
            def __init__(self, factor):
                self.factor = factor

            def scale(self, x):
                return x * self.factor

            @staticmethod
            def unit(x):
                return x / 2.0
    """,
}
USER = """
    import jax
    import jax.numpy as jnp
    from tinyjaxlib import Scaler, compiled_jit


    def evaluate(batch):
        return compiled_jit(lambda v: v * 2.0)(batch)


    scaler = Scaler(0.5)
    x = jnp.ones(3)
    for _ in range(5):
        x = evaluate(x)
        x = jax.jit(scaler.scale)(x)
        x = jax.jit(scaler.unit)(x)
    print(x)
"""


def test_installed_package(tmp_path, monkeypatch):
    """A package installed on sys.path (here a directory prepended to it): its jit wrapper
    and its class's methods are read from its source, without importing it."""
    site, project = tmp_path / "site", tmp_path / "project"
    _write(site, INSTALLED)
    _write(project, {"train.py": USER, "pyproject.toml": "[project]\nname = 'demo'\n"})
    monkeypatch.syspath_prepend(str(site))
    [result] = lint_files([str(project / "train.py")], Settings(), jobs=1)
    found = sorted((d.line, d.code) for d in result.diagnostics)
    assert found == [(8, "JIT101"), (15, "JIT104")], [d.message for d in result.diagnostics]
    assert "tinyjaxlib" not in sys.modules and "tinyjaxlib.compile" not in sys.modules

    pytest.importorskip("jax")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    report = run_counting_compiles(project / "train.py")
    assert report["outcome"]["status"] == "ok", report["stderr"][-2000:]
    compiles = user_function_compiles(report, project / "train.py", also=site.rglob("*.py"))
    assert (compiles["<lambda>"], compiles["scale"], compiles["unit"]) == (5, 5, 1), compiles


UNKNOWN_OR_NO_METHOD = {
    "lib/__init__.py": "",
    "lib/models.py": """
        import torch


        class Wrapped(torch.nn.Module):
            def own(self, x):
                return x


        class Config:
            scale = 2.0

            @property
            def factor(self):
                return self.scale
    """,
    "train.py": """
        import jax
        import pytest

        from lib.models import Config, Wrapped


        @pytest.fixture
        def table():
            return {"f": abs}


        def run(model: Wrapped, config: Config, options: dict, x):
            for _ in range(5):
                x = jax.jit(model.forward)(x)  # inherited from a base nobody can read
                x = jax.jit(config.factor)(x)  # a property: no method object
                x = jax.jit(options.get)(x)  # a builtin's method: not a class of the code
            return x


        def test_table(table):
            for _ in range(5):
                jax.jit(table.get)
    """,
}


def test_unknown_bases_properties_and_builtins_stay_silent(tmp_path):
    """Only what the code states counts: an inherited name behind a base nobody can read may
    be anything, a property makes no method object, and builtins are no classes of the code."""
    _write(tmp_path, {**UNKNOWN_OR_NO_METHOD, "pyproject.toml": "[project]\nname = 'demo'\n"})
    # `run` has no caller in the project: its findings are in the opt-in group, selected here
    # so that silence means the receivers' types, not the calling context
    settings = Settings(extend_select=(UNKNOWN_CALLERS,))
    results = lint_files([str(tmp_path / "train.py"), str(tmp_path / "lib" / "models.py")],
                         settings, jobs=1)
    assert [d.message for r in results for d in r.diagnostics] == []
    # the own method of the same class, through the same annotation, is found
    (tmp_path / "train.py").write_text((tmp_path / "train.py").read_text()
                                       .replace("model.forward", "model.own"))
    results = lint_files([str(tmp_path / "train.py")], settings, jobs=1)
    assert [(d.line, d.code) for r in results for d in r.diagnostics] == [(15, "JIT104")]


KNOWN_WRAPPER = """
    import haliax as hax
    import jax.numpy as jnp


    class Evaluator:
        def __init__(self, scale):
            self.scale = scale

        def score(self, batch):
            return batch * self.scale

        def evaluate(self, batch):
            return hax.named_jit(lambda b: b * self.scale)(batch)

        def evaluate_method(self, batch):
            return hax.named_jit(self.score)(batch)


    evaluator = Evaluator(2.0)
    for batch in [jnp.ones(3), jnp.zeros(3)]:
        evaluator.evaluate(batch)
        evaluator.evaluate_method(batch)
"""


def test_known_ecosystem_wrapper_without_the_package(tmp_path):
    """haliax's named_jit is known by name (jitnames.KNOWN_JIT_WRAPPERS), haliax need not be
    installed: a lambda per evaluation compiles per call; a bound method of one object is
    equal under its equality-keyed cache (equinox.filter_jit's behaviour), so it is silent."""
    _write(tmp_path, {"evaluate.py": KNOWN_WRAPPER})
    [result] = lint_files([str(tmp_path / "evaluate.py")], Settings(), jobs=1)
    assert [(d.line, d.code) for d in result.diagnostics] == [(14, "JIT101")]
    assert result.diagnostics[0].message.startswith("haliax.named_jit of a lambda in `evaluate`")

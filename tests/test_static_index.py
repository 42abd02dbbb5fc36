"""The static-argument analysis: specs as JAX reads them, the project-wide index, single-file
linting, the prefilter, and the CLI/JSON contract for findings that cross modules."""

from __future__ import annotations

import json
import pickle
import textwrap
from pathlib import Path

import libcst as cst
import pytest

import jitlint

from helpers import FIXTURES
from jitlint.config import Settings
from jitlint.engine import iter_python_files, lint_file, lint_files, lint_source
from jitlint.jitnames import JitResolver
from jitlint.project import absolute, module_name_for
from jitlint.semantic import build_model
from jitlint.staticargs import spec_errors, spec_of

STATIC = FIXTURES / "static"
CROSS = ("JIT2", "JIT3", "JIT4", "JIT7")


def _specs(source: str):
    module = cst.parse_module(textwrap.dedent(source))
    model = build_model(module, "m")
    return {spec.name: spec for app in JitResolver(model).applications()
            if (spec := spec_of(app, model)) is not None}


def _codes(path: Path, **kwargs) -> list[tuple[int, str]]:
    result = lint_file(str(path), Settings(select=CROSS), **kwargs)
    assert result.internal_error is None
    return [(d.line, d.code) for d in result.diagnostics]


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def _lint_tree(root: Path, jobs: int = 1) -> dict[str, list[tuple[int, str]]]:
    settings = Settings(select=CROSS, root=root)
    files = list(iter_python_files([str(root)], settings))
    return {Path(r.path).relative_to(root).as_posix(): [(d.line, d.code) for d in r.diagnostics]
            for r in lint_files(files, settings, jobs=jobs)}


# ---------------------------------------------------------------------------- specs
def test_spec_from_every_form_and_inference_as_jax():
    specs = _specs("""
        from functools import partial
        import jax
        import equinox as eqx

        @jax.jit
        def plain(x): ...

        @partial(jax.jit, static_argnames="mode")
        def named(x, mode, *, flag=False): ...

        def raw(x, n, /, k): ...
        wrapped = jax.jit(raw, static_argnums=(-1, 0))

        class M:
            @partial(jax.jit, static_argnums=0)
            def method(self, x): ...

        @eqx.filter_jit
        def filtered(x, n): ...
    """)
    assert specs["plain"].effective_static() == ((), ())
    assert specs["named"].effective_static() == ((1,), ("mode",))
    assert specs["named"].kwonly == ("flag",)
    # argnums given alone: names inferred for POSITIONAL_OR_KEYWORD parameters only, and a
    # negative argnum names nothing (jax resolves it per call).
    assert specs["raw"].effective_static() == ((-1, 0), ())
    assert specs["raw"].posonly == 2
    assert specs["method"].method and specs["method"].positional == ("self", "x")
    assert specs["filtered"].filtering and not specs["plain"].filtering


def test_unreadable_spec_is_not_checked():
    specs = _specs("""
        import jax
        def f(x, n): ...
        g = jax.jit(f, static_argnums=get_argnums())
    """)
    assert not specs["f"].readable and list(spec_errors(specs["f"])) == []


def test_spec_errors_follow_jax_validation():
    specs = _specs("""
        from functools import partial
        import jax

        @partial(jax.jit, static_argnums=5)
        def too_far(x, y): ...

        @partial(jax.jit, static_argnums=5)
        def varargs(x, *rest): ...

        @partial(jax.jit, static_argnames="q")
        def kwargs(x, **options): ...

        @partial(jax.jit, static_argnames="x")
        def posonly(x, /, y): ...

        @partial(jax.jit, static_argnums=-2)
        def negative_ok(x, y): ...
    """)
    assert [k for k, _ in spec_errors(specs["too_far"])] == ["static_argnums"]
    assert list(spec_errors(specs["varargs"])) == []
    assert list(spec_errors(specs["kwargs"])) == []
    assert "positional-only" in next(spec_errors(specs["posonly"]))[1]
    assert list(spec_errors(specs["negative_ok"])) == []


def test_module_names_and_relative_imports():
    assert module_name_for(str(STATIC / "crossmod" / "steps.py")) == ("crossmod.steps", False)
    assert module_name_for(str(STATIC / "crossmod" / "__init__.py")) == ("crossmod", True)
    assert module_name_for(str(STATIC / "jit301_slice_static.py")) == ("jit301_slice_static", False)
    assert absolute(".steps.f", "pkg.mod", False) == "pkg.steps.f"
    assert absolute(".steps.f", "pkg", True) == "pkg.steps.f"
    assert absolute("..util.g", "pkg.sub.mod", False) == "pkg.util.g"


# ---------------------------------------------------------------------------- the index
def test_cross_module_findings_need_the_tree_and_single_files_still_work():
    script = STATIC / "crossmod_loop_counter.py"
    assert "jit" not in script.read_text()  # the prefilter must not skip it in the tree
    assert _codes(script) == []  # alone: the file does not show that `shift` is jitted
    [result] = [r for r in lint_files(list(iter_python_files([str(STATIC)], Settings(select=CROSS))),
                                      Settings(select=CROSS))
                if Path(r.path).name == script.name]
    assert [(d.line, d.code) for d in result.diagnostics] == [(8, "JIT401")]


def test_single_file_source_without_a_path_on_disk():
    source = (STATIC / "jit301_list_static_arg.py").read_bytes()
    result = lint_source(source, "example.py", Settings(select=CROSS))
    assert [d.code for d in result.diagnostics] == ["JIT301"]


def test_summaries_are_picklable_and_deterministic():
    settings = Settings(select=CROSS)
    files = list(iter_python_files([str(STATIC)], settings))
    first = {r.path: r.summary for r in lint_files(files, settings)}
    second = {r.path: r.summary for r in lint_files(files, settings)}
    assert first == second
    steps = first[str(STATIC / "crossmod" / "steps.py")]
    assert [f.name for f in steps.functions] == ["apply", "run_config", "shift"]
    assert pickle.loads(pickle.dumps(steps)) == steps


def test_processes_give_the_same_findings():
    settings = Settings(select=CROSS)
    files = list(iter_python_files([str(STATIC)], settings))
    assert len(files) >= 32  # enough for lint_files to use worker processes
    serial = [(r.path, r.diagnostics) for r in lint_files(files, settings, jobs=1)]
    parallel = [(r.path, r.diagnostics) for r in lint_files(files, settings, jobs=2)]
    assert serial == parallel


def test_a_run_lints_each_file_with_fewer_collections_then_restores_the_collector(monkeypatch):
    import gc

    from jitlint import engine

    thresholds = []
    real = engine.lint_file
    monkeypatch.setattr(engine, "lint_file",
                        lambda *args, **kwargs: thresholds.append(gc.get_threshold()) or real(*args, **kwargs))
    settings = Settings(select=CROSS)
    files = list(iter_python_files([str(STATIC)], settings))[:3]
    before = gc.get_threshold()
    results = lint_files(files, settings, jobs=1)
    assert len(thresholds) >= len(files) and set(thresholds) == {engine.FILE_GC_THRESHOLD}
    assert gc.get_threshold() == before
    assert [r.internal_error for r in results] == [None] * len(files)


def test_threads_linting_at_once_give_the_collector_back_when_the_last_one_ends():
    import gc
    import threading

    from jitlint.engine import FILE_GC_THRESHOLD, fewer_collections

    before = gc.get_threshold()
    inside, leave = threading.Event(), threading.Event()

    def lint_in_a_thread():
        with fewer_collections():
            inside.set()
            leave.wait(60)

    other = threading.Thread(target=lint_in_a_thread)
    with fewer_collections():
        other.start()
        assert inside.wait(60)
    assert gc.get_threshold() == FILE_GC_THRESHOLD  # the other thread is still linting
    leave.set()
    other.join(60)
    assert gc.get_threshold() == before


def test_import_forms_and_class_hashability_across_modules(tmp_path):
    root = _tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/steps.py": """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=1)
            def step(x, cfg):
                return x
        """,
        "pkg/types.py": """
            from dataclasses import dataclass

            @dataclass
            class Mutable:
                a: int = 1

            @dataclass(frozen=True)
            class Frozen:
                a: int = 1

            class Plain:
                pass

            class Child(Plain):
                pass
        """,
        "use_from.py": """
            from pkg.steps import step
            from pkg.types import Mutable, Frozen, Child
            step(1, Mutable())
            step(1, Frozen())
            for i in range(3):
                step(1, Child())
                step(1, i)
        """,
        "use_alias.py": """
            import pkg.steps as m
            import pkg.steps
            m.step(1, [1])
            pkg.steps.step(1, {1: 2})
            m.step(1, (1, 2))
        """,
        "pkg/inner.py": """
            from .steps import step
            from . import steps
            def run(x):
                step(x, [0])
                steps.step(x, (0,))
        """,
    })
    findings = _lint_tree(root)
    assert findings["use_from.py"] == [(4, "JIT301"), (7, "JIT402"), (8, "JIT401")]
    assert findings["use_alias.py"] == [(4, "JIT301"), (5, "JIT301")]
    assert findings["pkg/inner.py"] == [(5, "JIT301")]


def test_ambiguous_module_names_stay_silent(tmp_path):
    step = """
        from functools import partial
        import jax

        @partial(jax.jit, static_argnums=1)
        def step(x, cfg):
            return x
    """
    root = _tree(tmp_path, {
        "a/steps.py": step.replace("static_argnums=1", "static_argnums=0"),
        "b/steps.py": step,  # linted last: without the ambiguity check it would win
        "a/use.py": "from steps import step\nstep(1, [1])\n",
    })
    assert _lint_tree(root)["a/use.py"] == []


def test_cli_json_contract_for_cross_module_findings(run_cli):
    code, out, _ = run_cli("check", "--select", "JIT4", "--output-format", "json", str(STATIC))
    assert code == 1
    findings = json.loads(out)
    cross = [f for f in findings if f["path"].endswith("crossmod_loop_counter.py")]
    assert cross == [{
        "path": str(STATIC / "crossmod_loop_counter.py"), "line": 8, "column": 18, "end_line": 8,
        "end_column": 19, "code": "JIT401", "name": "loop-variable-static-arg",
        "message": cross[0]["message"], "severity": "warning", "fix": None,
    }]
    assert "`k` (position 1) of `shift`" in cross[0]["message"]
    assert "recompiles on every call" in cross[0]["message"]


def test_classes_with_bases_outside_the_tree_stay_silent():
    source = textwrap.dedent("""
        from dataclasses import dataclass
        from functools import partial
        import jax
        from somelib import Base

        class Keyed(Base):
            def __eq__(self, other):
                return True

        class Local:
            def __eq__(self, other):
                return True

        class Child(Local):
            pass

        @partial(jax.jit, static_argnums=1)
        def f(x, cfg):
            return x

        f(1, Keyed())   # a metaclass of Base may define __hash__: unknown
        f(1, Child())   # inherits __hash__ = None from Local
    """).encode()
    result = lint_source(source, "example.py", Settings(select=CROSS))
    assert [(d.line, d.code) for d in result.diagnostics] == [(23, "JIT301")]


def test_calls_reached_through_module_aliases_and_copies(tmp_path):
    # Which files are linted again with the index is decided from the names they refer to
    # (project.scan_module); every spelling the semantic model resolves must be among them.
    root = _tree(tmp_path, {
        "pkg/__init__.py": "from .steps import step as step\n",
        "pkg/steps.py": """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=1)
            def step(x, cfg):
                return x

            @jax.jit
            def plain(x, cfg):
                return x
        """,
        "use_reexport.py": """
            import pkg
            pkg.step(1, [2])
            pkg.steps.plain(1, [3])
        """,
        "use_copy.py": """
            import pkg.steps
            steps_module = pkg.steps
            steps_module.step(1, [1])
        """,
    })
    findings = _lint_tree(root)
    assert findings["use_reexport.py"] == [(3, "JIT301")]
    assert findings["use_copy.py"] == [(4, "JIT301")]


def test_only_files_that_reach_a_jitted_function_with_static_arguments_are_linted_again(tmp_path):
    from jitlint.engine import _needs_index
    from jitlint.project import build_index

    root = _tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/steps.py": """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=1)
            def step(x, cfg):
                return x

            @jax.jit
            def plain(x):
                return x

            class Options:
                def __init__(self, depth):
                    self.depth = depth
        """,
        # files with static jits of their own: a class of the project matters when it is
        # instantiated (or subclassed), not when it is only named in an annotation
        "makes_options.py": """
            from functools import partial
            import jax
            from pkg.steps import Options

            @partial(jax.jit, static_argnums=1)
            def run(x, options):
                return x

            for depth in range(3):
                run(1, Options(depth))
        """,
        "annotates_options.py": """
            from functools import partial
            import jax
            from pkg.steps import Options

            @partial(jax.jit, static_argnums=1)
            def run(x, options: Options):
                return x
        """,
        "calls_plain.py": "import pkg.steps\nfor i in range(3):\n    pkg.steps.plain(i)\n",
        "calls_step.py": "import pkg.steps\ncfg = [2]\npkg.steps.step(1, cfg)\n",
        # a constant literal is the same hashable value at every call: nothing to check
        "calls_step_constant.py": "import pkg.steps\npkg.steps.step(1, 2)\npkg.steps.step(1, cfg=(2, 'a'))\n",
        "calls_step_unpacked.py": "import pkg.steps\nargs = (1, [2])\npkg.steps.step(*args)\n",
        "imports_only.py": "import pkg.steps\nprint(pkg.steps.__name__)\n",
    })
    settings = Settings(select=CROSS, root=root)
    files = list(iter_python_files([str(root)], settings))
    results = [lint_file(path, settings) for path in files]
    index = build_index([(path, result.summary) for path, result in zip(files, results)])
    again = {Path(r.path).name for r in results if _needs_index(r, index)}
    assert again == {"calls_step.py", "makes_options.py"}
    # and the index indeed changes nothing for the others
    expected = {"calls_step.py": ["JIT301"], "makes_options.py": ["JIT402"]}
    for path, result in zip(files, results):
        with_index = lint_file(path, settings, index=index)
        if Path(path).name in again:
            assert [d.code for d in with_index.diagnostics] == expected[Path(path).name]
        else:
            assert with_index.diagnostics == result.diagnostics


def test_jit_wrappers_in_summaries_and_through_imports(tmp_path):
    """A module-level function returning a jit of its parameter (or a decorator factory)
    is in its module's summary; memoised helpers and jits of a module's own function are not.
    Users reach them through imports, module aliases and re-exports, never by their text."""
    from jitlint.project import summarize_path

    summary = summarize_path(str(FIXTURES / "repetition" / "wraplib" / "jitutil.py"))
    assert summary is not None and pickle.loads(pickle.dumps(summary)) == summary
    assert {(w.name, w.factory) for w in summary.wrappers} == {
        ("jit_with_defaults", False), ("jit_static_first", False), ("compiled", False),
        ("my_jit", True)}
    assert summary.wrapper("jit_static_first").keywords == (("static_argnums", "(0,)"),)
    root = _tree(tmp_path, {
        "pkg/__init__.py": "from .jits import compiled as jit_it\n",
        "pkg/jits.py": """
            import jax

            def compiled(fn, n=1):
                return jax.jit(fn, static_argnums=n)

            def make(**kw):
                return jax.jit(**kw)
        """,
        "use.py": """
            import pkg
            import pkg.jits as pj

            def compiled(fn):
                return fn

            for i in range(3):
                pkg.jit_it(lambda v, n: v)(i, 1)
                pj.make(static_argnums=0)(lambda v: v)(i)
                compiled(lambda v: v)(i)
        """,
    })
    settings = Settings(select=("JIT1", "JIT2"), root=root)
    files = list(iter_python_files([str(root)], settings))
    found = {Path(r.path).name: [(d.line, d.code) for d in r.diagnostics]
             for r in lint_files(files, settings, jobs=1)}
    assert found["use.py"] == [(9, "JIT101"), (10, "JIT101")]  # not the local `compiled`


TRICKY_IMPORTS = textwrap.dedent("""\
    import os, numpy as np
    import jax.numpy
    from . import sibling
    from .. import cousin as c
    from .mod import (f, g as h)
    from pkg.sub import *
    try:
        from fast import impl
    except ImportError:
        from slow import impl
    if os.environ:
        from a import once
    for item in []:
        pass
    with open(".") as handle:
        pass
    [y := 1 for _ in ()]
    from b import y
    from b import deleted
    del deleted
    from b import later
    later = 3
    def fn(arg=(w := 2)):
        from inner import hidden
    class Config:
        from z import in_class
    from b import w
    match 1:
        case {"k": v, **rest}:
            pass
    from b import rest
""")


def test_cheap_summary_imports_are_the_semantic_models(tmp_path):
    """project.module_imports (Python's ast, for modules that never say jit) must give the
    aliases summarize gives from libcst's semantic model: a file, and every jitlint module."""
    import ast

    from jitlint.jitnames import JitResolver
    from jitlint.project import module_imports, module_name_for, summarize
    from jitlint.semantic import build_model

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "tricky.py").write_text(TRICKY_IMPORTS)
    sources = [tmp_path / "pkg" / "tricky.py", *Path(jitlint.__file__).parent.rglob("*.py")]
    for path in sources:
        text = path.read_text()
        name, is_package = module_name_for(str(path))
        model = build_model(cst.parse_module(text), name)
        full = summarize(model, JitResolver(model).applications(), str(path), is_package)
        functions = {f.name for f in full.functions}
        cheap, classes = module_imports(ast.parse(text), name, is_package)
        assert tuple(a for a in cheap if a[0] not in functions) == full.aliases, path
        assert set(classes) == {c.name for c in full.classes}, path


# ---------------------------------------------------------------------------- the prefilter
@pytest.mark.parametrize("qualname, may_be_jit", [
    ("jax.jit", True), ("jax._src.pjit.jit", True), ("equinox.filter_jit", True),
    ("flax.nnx.jit", True), ("haliax.named_jit", True),
    ("mylib.train.smart_jit", True),  # a wrapper of the project's or an installed package's
    ("jax.disable_jit", False), ("jax._src.pjit.pjit_p", False), ("jax.core.jit_p", False),
    ("flax.linen.transforms.jit_fn", False), ("numpy.sum", False),
])
def test_which_names_may_be_jit(qualname, may_be_jit):
    from jitlint.jitnames import may_name_jit

    assert may_name_jit(qualname) is may_be_jit


@pytest.mark.parametrize("source, parsed", [
    # JAX's own modules name jit words without using jit: nothing a rule could report
    ("from jax._src import pjit\nP = pjit.pjit_p\n", False),
    ("import jax\nwith jax.disable_jit():\n    pass\n", False),
    ("def jitted_names():\n    second = 2  # cond, scan\n    return second\n", False),
    # a jit, a wrapper from elsewhere, an eager lax loop: worth parsing
    ("from jax import jit\nf = jit(abs)\n", True),
    ("from .utils import fast_jit\n\n@fast_jit\ndef f(x):\n    return x\n", True),
    ("from jax import lax\nfor i in range(3):\n    lax.fori_loop(0, i, lambda j, c: c, 0)\n", True),
    ("import optax\nsolver = optax.lbfgs()\n", True),
    # a transform without jit: parsed when the function it is handed forces a parameter's value
    ("import jax\ndef relu(x):\n    if x > 0:\n        return x\n    return 0.0\nf = jax.vmap(relu)\n", True),
    ("import jax\nf = jax.vmap(lambda x: int(x))\n", True),
    ("import jax\nimport numpy as np\ndef loss(w):\n    return np.sum(w)\ng = jax.grad(loss)\n", True),
    ("import jax\ndef scale(x, flag=None):\n    if flag is None:\n        return x\n    return 2 * x\n"
     "f = jax.vmap(scale)\n", False),
    ("import jax\nimport jax.numpy as jnp\nf = jax.vmap(jnp.dot)\n", False),
    # a library that traces the function it is given (jaxfacts.TRACING_CALLS): its name
    ("from numpyro.infer import NUTS\ndef model(x):\n    pass\nkernel = NUTS(model)\n", True),
    # a library method that traces a def of the file (flax's self.param runs the initializer
    # under apply's eval_shape); a library initializer handed to it is no reason to parse
    ("import flax.linen as nn\ndef init(key, shape):\n    return key\nclass M(nn.Module):\n"
     "    def __call__(self, x):\n        return self.param('w', init, (3,))\n", True),
    ("import flax.linen as nn\nclass M(nn.Module):\n"
     "    def __call__(self, x):\n        return self.param('w', nn.initializers.ones, (3,))\n", False),
])
def test_the_prefilter_parses_files_that_may_have_findings(source, parsed, monkeypatch):
    from jitlint import engine

    seen = []
    real = engine._may_have_findings
    monkeypatch.setattr(engine, "_may_have_findings",
                        lambda *args, **kwargs: seen.append(real(*args, **kwargs)) or seen[-1])
    lint_source(source.encode(), "pkg/mod.py", Settings())
    assert seen == [parsed]

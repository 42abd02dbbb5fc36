"""Facts that cross modules through the project index (issue 27): a jitted function of one
module calls a helper of another with traced arguments, so the helper's body runs on tracers
(its own module's lint analyses it, phase 2).  Static: each case is a tiny project in
tmp_path, written in the spellings real code uses (a from-import, ``import ops; ops.f``, a
relative import in a package, a package ``__init__`` re-export), with look-alikes that must
stay silent."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from jitlint.cache import ResultCache
from jitlint.config import Settings
from jitlint.engine import all_diagnostics, iter_python_files, lint_files


def _project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def _findings(root: Path, cache_dir=None) -> set[tuple[str, int, str]]:
    settings = Settings(root=root)
    files = list(iter_python_files([str(root)], settings))
    cache = ResultCache(cache_dir, settings.fingerprint()) if cache_dir else None
    return {(Path(d.path).relative_to(root).as_posix(), d.line, d.code)
            for d in all_diagnostics(lint_files(files, settings, jobs=1, cache=cache))}


RELU_IF = """\
    def relu(x):
        if x > 0:
            return x
        return 0.0 * x
"""

RELU_WHERE = """\
    import jax.numpy as jnp


    def relu(x):
        return jnp.where(x > 0, x, 0.0)
"""

POSITIVES = """\
    def positives(x, threshold=0.0):
        return x[x > threshold]
"""


def _main(imports: str, call: str) -> str:
    return f"""\
        import jax
        import jax.numpy as jnp
        {imports}


        @jax.jit
        def layer(x):
            return {call}


        print(layer(jnp.ones(3)))
    """


TRACED_HELPERS = [
    # from-import
    ({"ops.py": RELU_IF, "main.py": _main("from ops import relu", "relu(x.sum())")}, ("ops.py", 2, "JIT801")),
    # module import, attribute call
    ({"ops.py": POSITIVES, "main.py": _main("import ops", "ops.positives(x).sum()")}, ("ops.py", 2, "JIT806")),
    # module import under another name, keyword argument
    ({"ops.py": RELU_IF, "main.py": _main("import ops as o", "o.relu(x=x.sum())")}, ("ops.py", 2, "JIT801")),
    # relative import inside a package
    ({"pkg/__init__.py": "", "pkg/ops.py": RELU_IF,
      "pkg/model.py": _main("from .ops import relu", "relu(x.sum())")}, ("pkg/ops.py", 2, "JIT801")),
    # the package re-exports the helper
    ({"pkg/__init__.py": "from .ops import positives\n", "pkg/ops.py": POSITIVES,
      "main.py": _main("import pkg", "pkg.positives(x).sum()")}, ("pkg/ops.py", 2, "JIT806")),
]


@pytest.mark.parametrize("files, finding", TRACED_HELPERS)
def test_a_helper_of_another_module_runs_on_the_tracers_it_is_given(tmp_path, files, finding):
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", **files})
    assert _findings(root) == {finding}


SILENT = [
    # jnp.where: no Python-value operation on the tracer
    {"ops.py": RELU_WHERE, "main.py": _main("from ops import relu", "relu(x.sum())")},
    # only a constant reaches the parameter the helper tests
    {"ops.py": RELU_IF, "main.py": _main("from ops import relu", "x * relu(2.0)")},
    # the traced argument goes to another parameter: the threshold stays a Python value
    {"ops.py": "def scaled(x, n):\n    if n > 1:\n        return x * n\n    return x\n",
     "main.py": _main("from ops import scaled", "scaled(x, 3)")},
    # called eagerly, outside any jit
    {"ops.py": RELU_IF, "main.py": "import jax.numpy as jnp\nfrom ops import relu\nprint(relu(jnp.ones(3).sum()))\n"},
]


@pytest.mark.parametrize("files", SILENT)
def test_look_alikes_stay_silent(tmp_path, files):
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", **files})
    assert _findings(root) == set()


def test_the_cached_helper_follows_its_callers(tmp_path):
    """The helper's finding rests on another module's bytes: a cached result must notice the
    caller stop passing a tracer (and start again)."""
    root = _project(tmp_path / "p", {"pyproject.toml": "[project]\nname = 'p'\n", "ops.py": RELU_IF,
                                     "main.py": _main("from ops import relu", "relu(x.sum())")})
    cache = tmp_path / "cache"
    assert _findings(root, cache) == {("ops.py", 2, "JIT801")}
    main = root / "main.py"
    main.write_text(textwrap.dedent(_main("from ops import relu", "x * relu(2.0)")))
    assert _findings(root, cache) == set()
    main.write_text(textwrap.dedent(_main("from ops import relu", "relu(x.sum())")))
    assert _findings(root, cache) == {("ops.py", 2, "JIT801")}


SIMULATE = """\
    import jax.numpy as jnp
    from jax import lax


    def simulate(state, steps):
        return lax.fori_loop(0, steps, lambda i, s: s + 0.1 * jnp.sin(s), state)
"""

SIMULATE_LOCAL_DEF = """\
    import jax


    def simulate(state, steps):
        def body(i, s):
            return s * 0.5

        return jax.lax.fori_loop(0, steps, body, state)
"""

SIMULATE_MODULE_BODY = """\
    from jax import lax


    def body(i, s):
        return s * 0.5


    def simulate(state, steps):
        return lax.fori_loop(0, steps, body, state)
"""


def _loop(imports: str, call: str, loop: bool = True) -> str:
    body = f"for _ in range(3):\n    state = {call}\n" if loop else f"state = {call}\n"
    return f"import jax.numpy as jnp\n{imports}\n\nstate = jnp.ones(2)\n{body}print(state)\n"


EAGER_HELPERS = [
    ({"dynamics.py": SIMULATE, "main.py": _loop("from dynamics import simulate", "simulate(state, 5)")}, 6),
    ({"dynamics.py": SIMULATE_LOCAL_DEF, "main.py": _loop("import dynamics", "dynamics.simulate(state, 5)")}, 6),
    ({"sim/__init__.py": "from .dynamics import simulate\n", "sim/dynamics.py": SIMULATE,
      "main.py": _loop("import sim", "sim.simulate(state, 5)")}, 6),
    ({"sim/__init__.py": "", "sim/dynamics.py": SIMULATE,
      "sim/run.py": _loop("from .dynamics import simulate", "simulate(state, 5)")}, 6),
]


@pytest.mark.parametrize("files, line", EAGER_HELPERS)
def test_another_modules_lax_helper_called_in_a_loop(tmp_path, files, line):
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", **files})
    caller = next(name for name in files if name.endswith(("main.py", "run.py")))
    assert _findings(root) == {(caller, line, "JIT520")}


@pytest.mark.parametrize("files", [
    # its body is a module-level def: compiled once, reused on every call
    {"dynamics.py": SIMULATE_MODULE_BODY, "main.py": _loop("from dynamics import simulate", "simulate(state, 5)")},
    # called once
    {"dynamics.py": SIMULATE, "main.py": _loop("from dynamics import simulate", "simulate(state, 5)", loop=False)},
])
def test_lax_helper_look_alikes_stay_silent(tmp_path, files):
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", **files})
    assert _findings(root) == set()


TILE = """\
    import functools

    import jax
    import jax.numpy as jnp


    @functools.partial(jax.jit, static_argnums=1)
    def tile(x, reps):
        return jnp.tile(x, reps)
"""


def _tile_call(imports: str, reps: str) -> str:
    return f"import jax.numpy as jnp\n{imports}\n\nprint(tile(jnp.ones((2, 2)), {reps}))\n"


UNHASHABLE_VALUES = [
    ({"config.py": "KERNEL = [2, 2]\n", "ops.py": TILE,
      "main.py": _tile_call("from config import KERNEL\nfrom ops import tile", "KERNEL")}, "main.py"),
    ({"config.py": "KERNEL = {'rows': 2}\n", "ops.py": TILE,
      "main.py": _tile_call("import config\nfrom ops import tile", "config.KERNEL")}, "main.py"),
    ({"pkg/__init__.py": "from .config import KERNEL\n", "pkg/config.py": "KERNEL = [2, 2]\n", "ops.py": TILE,
      "main.py": _tile_call("from pkg import KERNEL\nfrom ops import tile", "KERNEL")}, "main.py"),
    ({"pkg/__init__.py": "", "pkg/config.py": "KERNEL = [n for n in (2, 2)]\n", "pkg/ops.py": TILE,
      "pkg/main.py": _tile_call("from .config import KERNEL\nfrom .ops import tile", "KERNEL")}, "pkg/main.py"),
]


@pytest.mark.parametrize("files, caller", UNHASHABLE_VALUES)
def test_an_imported_unhashable_value_at_a_static_position(tmp_path, files, caller):
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", **files})
    assert _findings(root) == {(caller, 5, "JIT301")}


@pytest.mark.parametrize("config", [
    "KERNEL = (2, 2)\n",  # a tuple hashes
    "KERNEL = [2, 2]\nKERNEL = tuple(KERNEL)\n",  # bound twice: the value at import is not the literal
    "import os\nif os.environ.get('X'):\n    KERNEL = (2, 2)\nelse:\n    KERNEL = [2, 2]\n",
])
def test_imported_hashable_look_alikes_stay_silent(tmp_path, config):
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", "config.py": config, "ops.py": TILE,
                               "main.py": _tile_call("from config import KERNEL\nfrom ops import tile", "KERNEL")})
    assert _findings(root) == set()


def test_tracers_passed_on_through_a_third_module(tmp_path):
    """train.py's jitted step -> model.py's loss -> layers.py's activation: each hop is a
    module linted again with the parameters that receive tracers traced."""
    root = _project(tmp_path, {
        "pyproject.toml": "[project]\nname = 'p'\n",
        "layers.py": RELU_IF,
        "model.py": "from layers import relu\n\n\ndef loss(params, x):\n    return relu((params * x).sum())\n",
        "train.py": _main("from model import loss", "loss(x, 2.0)"),
    })
    assert _findings(root) == {("layers.py", 2, "JIT801")}


BATCHES = """\
    import numpy as np


    def batches(size):
        data = np.ones((10, 2))
        for start in range(0, len(data), size):
            yield data[start:start + size]
"""

BATCHES_DROPPED = BATCHES.replace("range(0, len(data), size)", "range(0, len(data) - size + 1, size)")
# a hand-written loader class: iterating one of its instances yields its batches
LOADER_CLASS = """import numpy as np


class Batches:
    def __init__(self, size):
        self.data = np.ones((10, 2))
        self.size = size
        self.n = self.data.shape[0]

    def __iter__(self):
        for start in range(0, self.n, self.size):
            yield self.data[start:start + self.size]
"""
LOADER_CLASS_DROPPED = LOADER_CLASS.replace("range(0, self.n, self.size)", "range(0, self.n - self.size + 1, self.size)")


def _epoch(imports: str, source: str) -> str:
    return (f"import jax\n{imports}\n\n\n@jax.jit\ndef total(x):\n    return x.sum()\n\n\n"
            f"for batch in {source}:\n    print(total(batch))\n")


RAGGED = [
    ({"data.py": BATCHES, "main.py": _epoch("from data import batches", "batches(4)")}, "main.py"),
    ({"data.py": BATCHES, "main.py": _epoch("import data", "data.batches(4)")}, "main.py"),
    ({"pipeline/__init__.py": "from .data import batches\n", "pipeline/data.py": BATCHES,
      "main.py": _epoch("import pipeline", "pipeline.batches(4)")}, "main.py"),
    ({"pipeline/__init__.py": "", "pipeline/data.py": BATCHES,
      "pipeline/train.py": _epoch("from .data import batches", "enumerate(batches(4))")}, "pipeline/train.py"),
    ({"data.py": LOADER_CLASS, "main.py": _epoch("from data import Batches", "Batches(4)")}, "main.py"),
]


@pytest.mark.parametrize("files, caller", RAGGED)
def test_another_modules_generator_ends_with_a_short_batch(tmp_path, files, caller):
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", **files})
    assert {(path, code) for path, _, code in _findings(root)} == {(caller, "JIT504")}


@pytest.mark.parametrize("data, source", [(BATCHES_DROPPED, "batches"), (LOADER_CLASS_DROPPED, "Batches")])
def test_another_modules_generator_that_drops_the_remainder_is_silent(tmp_path, data, source):
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", "data.py": data,
                               "main.py": _epoch(f"from data import {source}", f"{source}(4)")})
    assert _findings(root) == set()


def test_a_helper_called_under_grad_alone_is_not_analysed_traced(tmp_path):
    """jax.grad without jit traces with values: ``if x > 0`` works on its tracers."""
    root = _project(tmp_path, {
        "pyproject.toml": "[project]\nname = 'p'\n", "ops.py": RELU_IF,
        "main.py": "import jax\nfrom ops import relu\n\n\ndef loss(x):\n    return relu(x) * 2.0\n\n\n"
                   "print(jax.grad(loss)(1.0))\n",
    })
    assert _findings(root) == set()


APPLY = """\
    import jax

    import settings


    @jax.jit
    def apply(x):
        return x * settings.scale
"""


def _calls(imports: str, call: str, between: str = "settings.scale = 3.0") -> str:
    return (f"import jax.numpy as jnp\n\nimport settings\n{imports}\n\n"
            f"print({call}(jnp.ones(2)))\n{between}\nprint({call}(jnp.ones(2)))\n")


STALE = [
    ({"model.py": APPLY, "main.py": _calls("from model import apply", "apply")}, ("main.py", 7, "JIT601")),
    ({"model.py": APPLY, "main.py": _calls("import model", "model.apply")}, ("main.py", 7, "JIT601")),
    ({"net/__init__.py": "from .model import apply\n", "net/model.py": APPLY,
      "main.py": _calls("import net", "net.apply")}, ("main.py", 7, "JIT601")),
    # the jitted function in the same module, the name of another module: at the read
    ({"main.py": textwrap.dedent(APPLY) + "\n\nimport jax.numpy as jnp\n\nprint(apply(jnp.ones(2)))\nsettings.scale = 3.0\n"
                         "print(apply(jnp.ones(2)))\n"}, ("main.py", 8, "JIT601")),
]


@pytest.mark.parametrize("files, finding", STALE)
def test_another_modules_name_changed_between_calls_of_a_jit_that_reads_it(tmp_path, files, finding):
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", "settings.py": "scale = 2.0\n", **files})
    assert _findings(root) == {finding}


def test_another_modules_name_read_in_the_jitted_module_is_one_finding(tmp_path):
    """``settings.scale`` read under jit and assigned between calls in the same module: the
    imported-name analysis reports it once (a class namespace's writes are the same-module
    analysis's; a module's must not be reported by both)."""
    files = STALE[3][0]
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", "settings.py": "scale = 2.0\n", **files})
    settings = Settings(root=root)
    found = [d.code for d in all_diagnostics(lint_files(list(iter_python_files([str(root)], settings)), settings,
                                                        jobs=1))]
    assert found == ["JIT601"]


@pytest.mark.parametrize("main", [
    _calls("from model import apply", "apply", between="settings.offset = 3.0"),  # not what it reads
    "import jax.numpy as jnp\n\nimport settings\nfrom model import apply\n\nsettings.scale = 3.0\n"
    "print(apply(jnp.ones(2)))\nprint(apply(jnp.ones(2)))\n",  # set before the first call
    "import jax.numpy as jnp\n\nimport settings\nfrom model import apply\n\nprint(apply(jnp.ones(2)))\n"
    "settings.scale = 3.0\n",  # after the last call
])
def test_stale_look_alikes_stay_silent(tmp_path, main):
    root = _project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\n", "settings.py": "scale = 2.0\n",
                               "model.py": APPLY, "main.py": main})
    assert _findings(root) == set()


def test_the_cached_loop_follows_the_generators_module(tmp_path):
    root = _project(tmp_path / "p", {"pyproject.toml": "[project]\nname = 'p'\n", "data.py": BATCHES,
                                     "main.py": _epoch("from data import batches", "batches(4)")})
    cache = tmp_path / "cache"
    assert {code for _, _, code in _findings(root, cache)} == {"JIT504"}
    (root / "data.py").write_text(textwrap.dedent(BATCHES_DROPPED))
    assert _findings(root, cache) == set()

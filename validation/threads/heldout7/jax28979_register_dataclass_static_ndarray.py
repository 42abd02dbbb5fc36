# source: https://github.com/jax-ml/jax/pull/28979
# expect: unhashable-static at line 36
# runtime: ERROR ValueError
# why: The dataclass field x is registered as static metadata but holds a NumPy array; the second call with an equal array makes jit compare the metadata and raise ValueError.

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
import jax
import dataclasses
import numpy as np

@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Tree:
    x : np.ndarray = dataclasses.field(metadata={'static': True})

f = jax.jit(lambda x: x)
try:  # scaffolding
    f(Tree(np.arange(4)))
    f(Tree(np.arange(4)))  # second
    _report({"jit(<lambda>)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")

# source: https://github.com/jax-ml/jax/issues/7826
# expect: unhashable-static at line 34
# runtime: ERROR ValueError
# why: Model.c is a flax.struct field with pytree_node=False, so the numpy array becomes part of the jit cache key; the second call with an equal-looking model compares the arrays with == and raises ValueError (truth value of an array is ambiguous).

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


from jax import jit
from flax.struct import dataclass, field
import numpy as np

@dataclass
class Model():
    c: np.ndarray = field(pytree_node=False)

@jit
def f(model):
    return 1.0

m = Model(np.ones(10))
n = Model(np.ones(10))

f(m)
try:  # scaffolding
    f(n)
    _report({"jit(f)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")

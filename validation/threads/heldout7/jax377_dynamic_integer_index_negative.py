# source: https://github.com/jax-ml/jax/issues/377
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: Indexing with a traced integer (x[i], x[i, :]) is supported under jit (it lowers to a dynamic slice), so both functions trace and compile once each; nothing needs to be static.

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
import numpy as np  # scaffolding
from jax import jit

@jit
def f(x, i):
  return x[i]

x = np.arange(12).reshape(4, 3)
f(x, 1)
f(x, 2)  # scaffolding

@jit
def g(x, i):
  return x[i, :]

g(x, 1)
g(x, 3)  # scaffolding
_report({"jit(f)", "jit(g)"}, 4)  # scaffolding

# source: https://github.com/jax-ml/jax/pull/30703
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: np.prod on the static shape stays a Python/NumPy value at trace time, so reshape gets a concrete size and f compiles once per input shape.

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
from jax import jit
import jax.numpy as jnp
import numpy as np

@jit
def f(x):
  return x.reshape((np.prod(x.shape),))

x = jnp.ones((2, 3))  # scaffolding: from the previous cell
f(x)
f(x + 1)  # scaffolding
_report({"jit(f)"}, 2)  # scaffolding

# source: https://github.com/jax-ml/jax/issues/1271
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jnp.stack on a traced array inside jit used to hit a bool() check; fixed, it traces once.
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

import jax  # scaffolding
import jax.numpy as np  # scaffolding


@jax.jit
def foo(x):
  return np.stack(x)

foo(np.zeros(2))  # this fails
foo(np.ones(2))  # scaffolding: a second call with the same shape
_report({"jit(foo)"}, 2)  # scaffolding

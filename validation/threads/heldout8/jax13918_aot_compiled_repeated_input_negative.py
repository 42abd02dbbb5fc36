# source: https://github.com/jax-ml/jax/issues/13918
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: An AOT-compiled function called twice with the same array passed for two parameters; fixed in JAX, both calls run on the one executable.
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
import jax.numpy as jnp

x = jnp.array(0)
y = x
def f(x, y):
    return x

f_ = jax.jit(f).lower(x, y).compile()
f_(x, y)
f_(x, y)
_report({"jit(f)"}, 2)  # scaffolding

# source: https://github.com/jax-ml/jax/issues/184
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The reporter's `@jit(static_argnums=(0,))` decorator, which raised TypeError in 2019, works on 0.10.2 (jit returns a decorator when called without a function); the static function argument is hashable and reused, so mymap compiles once.

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
import jax.numpy as jnp  # scaffolding
from jax import jit

@jit(static_argnums=(0,))
def mymap(f, x):
    return f(x)

for v in [1.0, 2.0, 3.0]:  # scaffolding
    mymap(jnp.sin, v)
_report({"jit(mymap)"}, 3)  # scaffolding

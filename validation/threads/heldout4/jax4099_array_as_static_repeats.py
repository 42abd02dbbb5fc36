# source: https://github.com/jax-ml/jax/issues/4099
# expect: unhashable-static at line 32
# runtime: ERROR ValueError
# why: repeats=jnp.asarray([10]) is marked static (static_argnums=[0,1]); a jax array is not hashable, so jit raises ValueError (non-hashable static argument). In 2020 it was accepted.

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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

try:  # scaffolding
    jax.jit(lambda a, repeats: jnp.repeat(a, repeats, axis=0), static_argnums=[0,1])(-1, jnp.asarray([10]))
    _report({"jit(<lambda>)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")

# source: https://github.com/jax-ml/jax/pull/17650
# expect: trace-time-error at line 33
# runtime: ERROR ValueError
# why: bool() applied to a traced 5-element array under jit cannot be decided at trace time.
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
import jax.numpy as jnp  # scaffolding

try:  # scaffolding
    jax.jit(bool)(jnp.arange(5))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding

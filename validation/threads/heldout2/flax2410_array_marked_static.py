# source: https://github.com/google/flax/issues/2410
# expect: unhashable-static at line 31
# runtime: ERROR ValueError
# why: a jax array is passed in a position marked static; arrays cannot be hashed, so jit raises ValueError (the reporter's PRNGKey passed as a static argument).

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


import jax

try:  # scaffolding
    jax.jit(lambda x: x + 1, static_argnums=(0,))(jax.numpy.array([0, 1]))  # same error
    _report({"jit(<lambda>)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")

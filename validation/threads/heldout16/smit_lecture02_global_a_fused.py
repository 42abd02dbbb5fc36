# source: https://github.com/Smit-create/jax_tutorial
# expect: stale-closure at line 34
# runtime: COMPILES 2 CALLS 3
# why: the jitted f reads the global a at trace time, so after a = 42 the second call on the same shape still returns [2. 2.] from the cached executable; only the call with a new shape (3,) retraces and sees 43.
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
import jax.numpy as jnp

a = 1  # global

@jax.jit
def f(x):
    return a + x

x = jnp.ones(2)

print(f(x))  # scaffolding: print

a = 42

print(f(x))  # scaffolding: print

x = jnp.ones(3)

print(f(x))  # scaffolding: print
_report({"jit(f)"}, 3)  # scaffolding

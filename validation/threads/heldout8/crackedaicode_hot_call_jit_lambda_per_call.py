# source: https://crackedaicode.com/problems/jax-compilation-cache-key
# expect: jit-in-loop-or-body at line 34
# runtime: COMPILES 3 CALLS 3
# why: hot_call builds a fresh jax.jit(lambda ...) on every call, so each call has a new function identity, misses the jit cache and compiles again (one compile per call).

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

# BAD — new jit object every call → always recompiles
def hot_call(x):
    f = jax.jit(lambda y: jnp.sum(y ** 2))
    return f(x)

x = jnp.array([1.0, 2.0, 3.0])  # scaffolding
for _ in range(3):  # scaffolding
    hot_call(x)  # scaffolding
_report({"jit(<lambda>)"}, 3)  # scaffolding

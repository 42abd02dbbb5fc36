# source: https://github.com/jax-ml/jax/issues/22281
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: fn1 reads the module-level array x, which is never reassigned, so the captured constant stays valid: fn1 compiles once for 2 calls.

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

jax.config.update("jax_explain_cache_misses", True)

import jax.numpy as jnp

x = jnp.ones((160, 160))  # scaffolding: (16000, 16000) in the issue


@jax.jit
def fn1(y):
    return x + y


with jax.log_compiles():
    print(fn1(jnp.array(1.0)))
print(fn1(jnp.array(2.0)))  # scaffolding: a second call
_report({"jit(fn1)"}, 2)  # scaffolding

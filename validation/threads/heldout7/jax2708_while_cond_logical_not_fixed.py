# source: https://github.com/jax-ml/jax/issues/2708
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: With jnp.logical_not the condition stays a traced boolean array, so while_loop builds and runs the loop (no Python bool conversion).

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
from jax import numpy as jnp
from jax.lax import while_loop


def bf(x):
    return x + 1.0


def cf_ac(x):
    return jnp.logical_not(jnp.allclose(x, 10.0))


def cf_explicit(x):
    return jnp.abs(x - 10.0) > 1e-4


print(while_loop(cf_explicit, bf, 0.0))
print(while_loop(cf_ac, bf, 0.0))
_report({"jit(while)"}, 2)  # scaffolding

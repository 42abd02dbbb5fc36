# source: https://github.com/jax-ml/jax/issues/5233
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: rebinding a local name (x_copy = x; x_copy = x_copy ** 2) changes no outer state, so there is no side effect: func compiles once and behaves as without jit (gnecula).

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
from jax import jit  # scaffolding
import jax.numpy as jnp  # scaffolding

@jit
def func(x):
    x_copy = x
    x_copy = x_copy ** 2
    # do things with x_copy
    return x_copy  # scaffolding

x = jnp.arange(3.)  # scaffolding
func(x)  # scaffolding
func(x)  # scaffolding
_report({"jit(func)"}, 2)
